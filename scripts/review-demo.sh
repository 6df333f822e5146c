#!/usr/bin/env bash
# `schema review` on a throwaway replica set: the example app's migrations applied, a
# few hundred customers and orders written through the validators, one legacy customer
# written around them (as an old import would), an index created by hand in a console (no
# model declares it, no query uses it), and a config file with a password in its
# connection string. Prints the review; the README's example run is this script's output.
#
#   scripts/review-demo.sh            # starts mongod itself (scripts/with-mongod.sh)
#   scripts/review-demo.sh --format json
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${MONGODB_URI_REPLSET:-}" ]; then
  exec "$root/scripts/with-mongod.sh" "$0" "$@"
fi
cd "$root"
cargo build --quiet -p mongo-schema-example-app --features driver --bin schema
schema="${CARGO_TARGET_DIR:-$root/target}/debug/schema"
mongosh="$root/.cache/npm/node_modules/.bin/mongosh"

"$schema" apply --uri "$MONGODB_URI_REPLSET" --dir examples/app/migrations --state-db db_order >/dev/null
"$mongosh" --quiet --norc "$MONGODB_URI_REPLSET" --eval '
  const uc = db.getSiblingDB("db_user_center"), od = db.getSiblingDB("db_order");
  const now = new Date(), customers = [], orders = [];
  for (let i = 0; i < 200; i++) customers.push({_id: ObjectId(), userName: "customer" + i,
    email: "c" + i + "@example.com", status: "active",
    addresses: [{city: "Shenzhen", street: "Keyuan Road " + i, postalCode: "518057"}], createTime: now});
  uc.t_customer.insertMany(customers);
  for (let i = 0; i < 500; i++) orders.push({_id: ObjectId(), orderNo: "ORD" + (100000 + i),
    customerId: customers[i % 200]._id, totalAmount: NumberDecimal("198.00"), status: "paid", createTime: now,
    lines: [{productId: ObjectId(), productName: "Product A", price: NumberDecimal("99.00"), quantity: NumberInt(2)}]});
  od.t_order.insertMany(orders);
  // a legacy row: numeric status, a date as a string
  uc.runCommand({insert: "t_customer", bypassDocumentValidation: true, documents: [{_id: ObjectId(),
    userName: "Li Lei", email: "li@example.com", status: 1, addresses: [], createTime: "2024-03-15 10:30:00"}]});
  // an index made by hand for a report that was never written
  od.t_order.createIndex({status: 1, createTime: -1}, {name: "status_createTime_by_hand"});' >/dev/null

source_dir=$(mktemp -d "${TMPDIR:-/tmp}/review-demo.XXXXXX")
trap 'rm -rf "$source_dir"' EXIT
mkdir "$source_dir/src"
printf 'let uri = std::env::var("MONGODB_URI")?;\n' >"$source_dir/src/db.rs"
printf '[database]\n# staging, "temporarily"\nuri = "mongodb://shop_app:Sh0p-Staging-2024@10.0.8.21:27017,10.0.8.22:27017/db_order?authSource=admin"\n' \
  >"$source_dir/app.toml"

echo "\$ schema review --uri \"\$MONGODB_URI_REPLSET&retryWrites=true&retryReads=true&w=majority&maxPoolSize=50\" \\"
echo "    --apps 8 --peak-qps 1000 --latency-ms 20 --source app/"
code=0
"$schema" review --uri "$MONGODB_URI_REPLSET&retryWrites=true&retryReads=true&w=majority&maxPoolSize=50" \
  --apps 8 --peak-qps 1000 --latency-ms 20 --source "$source_dir" "$@" | sed "s|$source_dir/|app/|g" || code=$?
echo "(exit code $code)"
