// Drafted by `schema infer` from the data: the target shape of each collection, what the
// modelling rules want, chosen from what the documents hold. Review every type, waiver and
// bound before adopting it (docs/INFER.md); `schema check` with these models lists the
// documents that must change.
#![allow(dead_code)]

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `db_events.t_events`: 312 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type")]
#[mongo(db = "db_events", collection = "t_events", index(keys("deviceId" = 1, "ts" = -1), name = "deviceId_1_ts_-1"))]
pub enum Events {
    /// `type: "fault"`: 26 documents, with code, message.
    #[serde(rename = "fault")]
    Fault {
        /// 312 of 312: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: objectId 100%.
        #[serde(rename = "deviceId")]
        device_id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: date 98%, string 2%.
        ts: mongo_schema::bson::DateTime,
        /// 312 of 312: string 100%.
        source: EventsSource,
        /// 26 of 26: int32 100%.
        code: i32,
        /// 16 of 26: string 100%.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// `type: "geofence"`: 51 documents, with entered, zoneId.
    #[serde(rename = "geofence")]
    Geofence {
        /// 312 of 312: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: objectId 100%.
        #[serde(rename = "deviceId")]
        device_id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: date 98%, string 2%.
        ts: mongo_schema::bson::DateTime,
        /// 312 of 312: string 100%.
        source: EventsSource,
        /// 51 of 51: bool 100%.
        entered: bool,
        /// 51 of 51: objectId 100%.
        #[serde(rename = "zoneId")]
        zone_id: mongo_schema::bson::oid::ObjectId,
    },
    /// `type: "overspeed"`: 78 documents, with limitKmh.
    #[serde(rename = "overspeed")]
    Overspeed {
        /// 312 of 312: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: objectId 100%.
        #[serde(rename = "deviceId")]
        device_id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: date 98%, string 2%.
        ts: mongo_schema::bson::DateTime,
        /// 312 of 312: string 100%.
        source: EventsSource,
        /// 232 of 232: int32 100%.
        #[serde(rename = "speedKmh")]
        speed_kmh: i32,
        /// 78 of 78: int32 100%.
        #[serde(rename = "limitKmh")]
        limit_kmh: i32,
    },
    /// `type: "position"`: 154 documents, with lat, lng, heading.
    #[serde(rename = "position")]
    Position {
        /// 312 of 312: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: objectId 100%.
        #[serde(rename = "deviceId")]
        device_id: mongo_schema::bson::oid::ObjectId,
        /// 312 of 312: date 98%, string 2%.
        ts: mongo_schema::bson::DateTime,
        /// 312 of 312: string 100%.
        source: EventsSource,
        /// 154 of 154: double 100%.
        lat: f64,
        /// 154 of 154: double 100%.
        lng: f64,
        /// 232 of 232: int32 100%.
        #[serde(rename = "speedKmh")]
        speed_kmh: i32,
        /// 65 of 154: int32 100%.
        #[serde(skip_serializing_if = "Option::is_none")]
        heading: Option<i32>,
    },
}

/// The values of `source`: "app" 98, "can" 107, "gps" 107.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum EventsSource {
    #[serde(rename = "app")]
    App,
    #[serde(rename = "can")]
    Can,
    #[serde(rename = "gps")]
    Gps,
}

/// `db_events.user_events`: 89 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_events", collection = "user_events", index(keys("createTime" = 1), name = "createTime_1", ttl = 7776000), allow(collection_name, reason = "the deployed names, kept as they are: renaming a database or collection is a move, not a model change"))]
pub struct UserEvents {
    /// 89 of 89: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// 89 of 89: string 100%.
    pub status: UserEventsStatus,
    /// 89 of 89: int32 100%.
    pub payload: i32,
    /// 89 of 89: string 100%.
    pub source: UserEventsSource,
    /// 89 of 89: string 100% (with `event_type`, its old key).
    #[serde(alias = "event_type")]
    #[mongo(renamed_from = "event_type")]
    pub event_type: UserEventsEventType,
    /// 89 of 89: objectId 100% (with `customer_id`, its old key).
    #[serde(alias = "customer_id")]
    #[mongo(renamed_from = "customer_id")]
    pub customer_id: mongo_schema::bson::oid::ObjectId,
    /// 89 of 89: date 100% (with `created_at`, its old key).
    #[serde(alias = "created_at")]
    #[mongo(renamed_from = "created_at")]
    pub create_time: mongo_schema::bson::DateTime,
}

/// The values of `status`: "done" 26, "new" 31, "seen" 32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum UserEventsStatus {
    #[serde(rename = "done")]
    Done,
    #[serde(rename = "new")]
    New,
    #[serde(rename = "seen")]
    Seen,
}

/// The values of `source`: "android" 41, "ios" 23, "web" 25.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum UserEventsSource {
    #[serde(rename = "android")]
    Android,
    #[serde(rename = "ios")]
    Ios,
    #[serde(rename = "web")]
    Web,
}

/// The values of `eventType`: "click" 22, "purchase" 25, "signup" 21, "view" 21.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum UserEventsEventType {
    #[serde(rename = "click")]
    Click,
    #[serde(rename = "purchase")]
    Purchase,
    #[serde(rename = "signup")]
    Signup,
    #[serde(rename = "view")]
    View,
}

/// `db_events.users`: 40 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_events", collection = "users", allow(collection_name, reason = "the deployed names, kept as they are: renaming a database or collection is a move, not a model change"))]
pub struct Users {
    /// 40 of 40: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// 40 of 40: string 100%.
    pub first_name: String,
    /// 40 of 40: date 100%.
    pub last_login: mongo_schema::bson::DateTime,
    /// 40 of 40: string 100%.
    pub signup_source: UsersSignupSource,
}

/// The values of `signupSource`: "ad" 9, "friend" 15, "search" 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum UsersSignupSource {
    #[serde(rename = "ad")]
    Ad,
    #[serde(rename = "friend")]
    Friend,
    #[serde(rename = "search")]
    Search,
}
