#!/usr/bin/env bash
# Proves the typed client (clients/typescript, @club-platform/client) the way a customer meets it:
# a copy of the package outside the repository is installed and built as its README says
# (`npm install && npm run build`) and packed; the tarball must hold the types of every module; a
# fresh strict TypeScript project outside the repository (clients/typescript/consumer, without
# skipLibCheck) installs the tarball and type-checks, which includes a file of deliberate mistakes
# that each must be refused (`@ts-expect-error`); then its program runs its calls against a live
# server (dist/server.js with the demo club).
#
# Exits 3 when the customer's project does not type-check. --drop FILE takes FILE (e.g.
# dist/schema.d.ts) out of the tarball first: CI runs that too and expects 3, so that the check is
# seen to catch a package without its types.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
drop=""
if [ "${1:-}" = --drop ]; then drop=${2:?--drop needs a file of the package, e.g. dist/schema.d.ts}; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/club-platform-client-XXXXXX")
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The consumer's compiler and Node.js types: the versions the repository is checked with.
typescript=$(node -p 'require("./node_modules/typescript/package.json").version')
node_types=$(node -p 'require("./node_modules/@types/node/package.json").version')

echo "== the package, copied out of the repository: npm install && npm run build && npm pack"
mkdir "$work/package"
tar -C clients/typescript --exclude=node_modules --exclude=dist --exclude=consumer -cf - . | tar -C "$work/package" -xf -
(cd "$work/package" && npm install --no-audit --no-fund --loglevel=error && npm run build --silent \
  && npm pack --silent --pack-destination "$work" >/dev/null)
tarball=$(ls "$work"/club-platform-client-*.tgz)
listing=$(tar -tzf "$tarball")
echo "$listing" | sed 's/^/  /'
if [ -n "$drop" ]; then
  echo "== --drop: $drop taken out of the tarball"
  mkdir "$work/unpacked" && tar -C "$work/unpacked" -xzf "$tarball"
  rm "$work/unpacked/package/$drop"
  tar -C "$work/unpacked" -czf "$tarball" package
fi

echo "== a strict TypeScript project outside the repository installs the tarball and type-checks"
cp -r clients/typescript/consumer "$work/consumer"
cd "$work/consumer"
npm install --no-audit --no-fund --loglevel=error "$tarball" "typescript@$typescript" "@types/node@$node_types"
if ! npx tsc -p tsconfig.json; then
  echo "the customer's project does not type-check against the packed client" >&2
  exit 3
fi
for module in index schema; do
  echo "$listing" | grep -qx "package/dist/$module.d.ts" || { echo "the tarball lacks dist/$module.d.ts" >&2; exit 1; }
done

echo "== its calls against a live server (the demo club)"
export DATA_DIR="$work/data" DATABASE_URL="" LOG_LEVEL=warn HOST=127.0.0.1 RATE_LIMIT_CAPACITY=1000
key=$(node "$root/bin/club-platform.js" demo --json \
  | node -e 'let t = ""; process.stdin.on("data", (c) => { t += c }).on("end", () => process.stdout.write(JSON.parse(t).api_key))')
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
(cd "$root" && PORT=$port exec node dist/server.js) &
server=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { echo "the server exited" >&2; exit 1; }
  sleep 0.2
done
BASE_URL="http://127.0.0.1:$port" API_KEY=$key CLUB=demo node dist/use.js
kill -TERM "$server"
wait "$server" || true
server=""
echo "== the client package: ok"
