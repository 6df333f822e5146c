use mongo_schema::MongoSchema;

#[derive(MongoSchema)]
struct Product {
    price: rust_decimal::Decimal,
}

fn main() {}
