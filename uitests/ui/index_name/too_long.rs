use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(
    db = "db_order",
    collection = "t_order",
    index(keys(userId = 1), name = "ix_orders_of_a_user_sorted_by_the_time_they_were_created_for_the_order_history_page_of_the_mobile_app_and_the_web_shop_of_the_partner_portal_v2")
)]
struct Order {
    user_id: i64,
}

fn main() {}
