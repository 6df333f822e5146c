// Loads a mongodump .bson file into a collection with the Node driver (insertMany in large
// unordered batches; values kept as their exact BSON types), then times
// countDocuments({$nor: [{$jsonSchema: S}]}) over it: mongod answering the question
// `schema check` answers. Prints one JSON line.
//
//   node bench/check/load.js URI FILE SCHEMA.json NODE_MODULES_DIR RUNS
'use strict';
const fs = require('fs');

const [uri, file, schemaFile, modules, runsArg] = process.argv.slice(2);
const { MongoClient, BSON } = require(`${modules}/mongodb`);
const { EJSON } = BSON;

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

async function load(coll) {
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.alloc(16 << 20);
  let pending = Buffer.alloc(0);
  let batch = [];
  let batchBytes = 0;
  let documents = 0;
  // two batches in flight: one being sent while the next is decoded
  let inFlight = Promise.resolve();
  const flush = async () => {
    const docs = batch;
    batch = [];
    batchBytes = 0;
    await inFlight;
    inFlight = coll.insertMany(docs, { ordered: false }).then(() => undefined);
  };
  for (;;) {
    const got = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (got === 0) break;
    pending = Buffer.concat([pending, chunk.subarray(0, got)]);
    let at = 0;
    while (pending.length - at >= 4) {
      const len = pending.readInt32LE(at);
      if (pending.length - at < len) break;
      batch.push(BSON.deserialize(pending.subarray(at, at + len), { promoteValues: false }));
      at += len;
      batchBytes += len;
      documents += 1;
      if (batchBytes >= 32 << 20) await flush();
    }
    pending = pending.subarray(at);
  }
  if (batch.length) await flush();
  await inFlight;
  fs.closeSync(fd);
  if (pending.length) throw new Error(`${file}: ${pending.length} trailing bytes`);
  return documents;
}

async function main() {
  const client = new MongoClient(uri);
  await client.connect();
  // The test mongod runs with a 0.25 GB WiredTiger cache; the question is how fast the
  // server evaluates $jsonSchema, not how fast it pages, so give the cache room for the
  // whole collection (as a production server's would have).
  await client.db('admin').command({ setParameter: 1, wiredTigerEngineRuntimeConfig: 'cache_size=4G' });
  const db = client.db('db_order');
  await db.collection('t_order').drop().catch(() => {});
  const coll = db.collection('t_order');
  const loadStart = process.hrtime.bigint();
  const documents = await load(coll);
  const loadSeconds = seconds(loadStart);
  const schema = EJSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  const stats = await db.command({ collStats: 't_order' });
  // one untimed pass brings the collection into the cache
  await coll.countDocuments({});
  const counts = [];
  const times = [];
  for (let i = 0; i < Number(runsArg || 3); i++) {
    const start = process.hrtime.bigint();
    counts.push(await coll.countDocuments({ $nor: [{ $jsonSchema: schema }] }));
    times.push(seconds(start));
  }
  const all = await coll.countDocuments({});
  console.log(JSON.stringify({ documents, stored: all, loadSeconds, dataSize: stats.size, counts, times }));
  await db.dropDatabase();
  await client.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
