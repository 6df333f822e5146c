use mongo_schema::MongoSchema;

type Price = Option<rust_decimal::Decimal>;

#[derive(MongoSchema)]
struct Product {
    price: Price,
}

fn main() {}
