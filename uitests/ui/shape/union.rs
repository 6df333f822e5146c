use mongo_schema::MongoSchema;

#[derive(MongoSchema)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
