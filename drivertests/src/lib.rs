//! mongo-schema's tests that drive a deployment through the official driver (`tests/`),
//! kept out of mongo-schema so its published feature list needs no switch for the driver's
//! bson major. Run them with `scripts/with-mongod.sh cargo test -p mongo-schema-driver-tests`.
