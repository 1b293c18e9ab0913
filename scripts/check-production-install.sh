#!/usr/bin/env bash
# Proves the production install of docs/operations.md on a clean clone of this repository's HEAD:
# `npm ci && npm prune --omit=dev` leaves the built service and only its runtime dependencies; the
# server starts from the result, the command line of the result creates a club and a key, and the
# key reads /api/v1/groups (200).
#
# --installed: the checkout is itself a clean clone that `npm ci` installed a moment ago (CI's first
# step): the clone here takes a copy of that install (node_modules and dist) instead of running
# `npm ci` again, which would download, compile and build the same files a second time (some
# 150 s of CPU beside CI's checks); the prune and everything after it are the same.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/club-platform-production-XXXXXX")
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

installed=false
[ "${1:-}" != --installed ] || installed=true
git clone -q . "$work/app"
if $installed; then
  [ -f dist/.build-complete ] && [ -d node_modules ] || { echo "--installed: the checkout has no install to copy" >&2; exit 1; }
  echo "== production install: npm ci (a copy of the checkout's, made by CI's npm ci) && npm prune --omit=dev"
  cp -a node_modules dist "$work/app/"
  cd "$work/app"
else
  cd "$work/app"
  echo "== production install: npm ci && npm prune --omit=dev"
  npm ci --no-audit --no-fund
fi
npm prune --omit=dev --no-audit --no-fund

echo "== only runtime dependencies are left"
# A dev dependency that a runtime dependency needs too (the lock file does not mark it dev: light-my-request, which
# Fastify uses for inject) stays, as it must.
dev=$(node -e '
  const fs = require("fs")
  const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"))
  const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages ?? {}
  const left = Object.keys(pkg.devDependencies ?? {})
    .filter((name) => fs.existsSync(`node_modules/${name}`) && lock[`node_modules/${name}`]?.dev === true)
  process.stdout.write(left.join(" "))')
[ -z "$dev" ] || { echo "dev dependencies left after prune: $dev" >&2; exit 1; }
for name in $(node -p 'Object.keys(require("./package.json").dependencies).join(" ")'); do
  [ -d "node_modules/$name" ] || { echo "runtime dependency missing: $name" >&2; exit 1; }
done
[ -f dist/server.js ] && [ -f dist/cli/bin.js ] && [ -f dist/api-docs/index.html ] || { echo "dist/ was not built" >&2; exit 1; }
echo "runtime dependencies: $(du -sh node_modules | cut -f1), dist/: $(du -sh dist | cut -f1)"

export DATA_DIR="$work/data" DATABASE_URL="" LOG_LEVEL=warn HOST=127.0.0.1
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
echo "== the server starts from the result (port $port)"
PORT=$port node --max-old-space-size=128 dist/server.js &
server=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "the server exited" >&2; exit 1; }
  sleep 0.2
done

echo "== the command line of the result creates a club and a key"
node bin/club-platform.js clubs create --slug production-check --name "Production check" --timezone Europe/Berlin >/dev/null
key=$(node bin/club-platform.js keys create --club production-check --scopes read:groups --name check --json \
  | node -e 'let t = ""; process.stdin.on("data", (c) => { t += c }).on("end", () => process.stdout.write(JSON.parse(t).key))')

echo "== the key reads /api/v1/groups"
status=$(curl -s -o "$work/groups.json" -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$port/api/v1/groups")
[ "$status" = 200 ] || { echo "GET /api/v1/groups answered $status: $(cat "$work/groups.json")" >&2; exit 1; }
echo "GET /api/v1/groups: 200 $(cat "$work/groups.json")"

kill -TERM "$server"
wait "$server" || { echo "the server did not stop cleanly" >&2; exit 1; }
server=""
echo "== production install: ok"
