use facade::schema::{MongoCollection, MongoSchema};
use facade_user::Ticket;

#[test]
fn the_derive_names_the_runtime_through_the_facade() {
    let schema = Ticket::json_schema();
    assert_eq!(schema.get_array("required").unwrap().len(), 3, "{schema}");
    let author = schema.get_document("properties").unwrap().get_document("author").unwrap();
    assert_eq!(author.get_str("bsonType").unwrap(), "object", "{author}");
    assert_eq!(Ticket::COLLECTION_NAME, "t_ticket");
    assert!(facade::schema::registered().iter().any(|r| r.collection == "t_ticket"));
}

#[test]
fn path_names_the_runtime_through_the_facade() {
    // `path!` reaches its runtime through `$crate`: the facade's name, not `mongo_schema`
    assert_eq!(facade::schema::path!(Ticket.author.user_name), "author.userName");
    assert_eq!(facade::schema::path!(Ticket.id).as_str(), "_id");
}
