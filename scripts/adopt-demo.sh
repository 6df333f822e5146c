#!/usr/bin/env bash
# Adopting an existing database, on a throwaway replica set: `db_user_center.t_customer`
# holds 1,000 customers written for years without a validator (a missing email, a numeric
# status, a string date), and the legacy application keeps writing them. The example app's
# models are adopted through their first migration, the data fixed in a contract data
# migration, the validators enforced. Prints every command and its output; the "Adopting an
# existing database" guide in docs/MIGRATIONS.md is this script's output.
#
#   scripts/adopt-demo.sh            # starts mongod itself (scripts/with-mongod.sh)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${MONGODB_URI_REPLSET:-}" ]; then
  exec "$root/scripts/with-mongod.sh" "$0" "$@"
fi
cd "$root"
cargo build --quiet -p mongo-schema-example-app --features driver --bin schema
schema_bin="${CARGO_TARGET_DIR:-$root/target}/debug/schema"
mongosh="$root/.cache/npm/node_modules/.bin/mongosh"
work=$(mktemp -d "${TMPDIR:-/tmp}/adopt-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export MONGODB_URI="$MONGODB_URI_REPLSET"

# `$ schema ARGS`, then its output and, when not 0, its exit code
schema() {
  local shown="$*"
  echo "\$ schema ${shown//$MONGODB_URI/\$MONGODB_URI}"
  local code=0
  "$schema_bin" "$@" 2>&1 | sed "s|$work/||g; s|$MONGODB_URI|\$MONGODB_URI|g" || code=$?
  [ "$code" = 0 ] || echo "(exit code $code)"
  echo
}
legacy_write() {
  "$mongosh" --quiet --norc "$MONGODB_URI" --eval "$1"
}

# the legacy data: no validator ever saw it
legacy_write '
  const uc = db.getSiblingDB("db_user_center"); uc.dropDatabase();
  db.getSiblingDB("db_order").dropDatabase(); db.getSiblingDB("db_schema").dropDatabase();
  const docs = [];
  for (let i = 0; i < 1000; i++) {
    const d = {_id: ObjectId(), userName: "customer" + i, email: "c" + i + "@example.com", status: "active",
      addresses: [], createTime: new Date(Date.UTC(2019, 0, 1) + i * 86400000)};
    if (i % 10 === 0) delete d.email;                          // never asked for
    if (i % 25 === 0) d.status = 1;                            // a status code of 2019
    if (i % 40 === 0) d.createTime = "2019-03-15 10:30:00";    // an import wrote strings
    if (i === 7) d.userName = "X";                             // below the minimum of 2 characters
    docs.push(d);
  }
  uc.t_customer.insertMany(docs);' >/dev/null

echo "# 1. the models' first migration (a new directory: these collections had none)"
schema migrate --dir migrations
schema migrate --dir migrations --check
echo "# 2. applied at start (or by the CLI): created where missing, adopted where the data is"
schema apply --dir migrations
insert='db.getSiblingDB("db_user_center").t_customer.insertOne({userName: "written meanwhile", status: 2, addresses: [], createTime: new Date()}).acknowledged'
echo "# the legacy application still writes, as it always did (no email, a numeric status): accepted"
echo "\$ mongosh \"\$MONGODB_URI\" --eval '$insert'"
legacy_write "$insert"
echo
schema status --dir migrations
echo "# 3. what the data holds that the models refuse, with a fix for each group"
schema check --uri "$MONGODB_URI" --collection db_user_center.t_customer
echo "# 4. the fixes, in a data migration of the contract (the legacy writer is retired first)"
schema new-data fix_legacy_customers --contract --dir migrations
fix=$(ls migrations/*_fix_legacy_customers.json)
node -e '
  const fs = require("fs"), f = process.argv[1], m = JSON.parse(fs.readFileSync(f));
  m.up = [{db: "db_user_center", command: {update: "t_customer", updates: [
    {q: {email: {$exists: false}}, u: {$set: {email: "unknown@example.invalid"}}, multi: true},
    {q: {status: {$type: "number"}}, u: [{$set: {status: {$switch: {branches: [
      {case: {$eq: ["$status", 1]}, then: "active"}, {case: {$eq: ["$status", 2]}, then: "suspended"}],
      default: "closed"}}}}], multi: true},
    {q: {createTime: {$type: "string"}}, u: [{$set: {createTime: {$dateFromString: {dateString: "$createTime"}}}}], multi: true}
  ]}}];
  fs.writeFileSync(f, JSON.stringify(m, null, 2) + "\n");' "$fix"
echo "\$ cat migrations/$(basename "$fix")    # its \`up\`, filled in"
node -e '
  const up = JSON.parse(require("fs").readFileSync(process.argv[1])).up[0];
  console.log(`"up": [{"db": "${up.db}", "command": {"update": "${up.command.update}", "updates": [`);
  console.log(up.command.updates.map(u => "  " + JSON.stringify(u)).join(",\n"));
  console.log("]}}]");' "$fix"
echo
echo "# 5. the contract, once the legacy writer is gone: the fixes, then each validator enforced"
echo "#    only where no document fails it (the one-letter name needs a person)"
schema apply --dir migrations --contract
echo "\$ mongosh \"\$MONGODB_URI\" --eval 'db.getSiblingDB(\"db_user_center\").t_customer.updateOne({userName: \"X\"}, {\$set: {userName: \"Xu\"}})'"
legacy_write 'printjson(db.getSiblingDB("db_user_center").t_customer.updateOne({userName: "X"}, {$set: {userName: "Xu"}}).modifiedCount)'
echo
schema apply --dir migrations --contract
schema status --dir migrations
schema drift
