// Drafted by `schema infer` from the data: the target shape of each collection, what the
// modelling rules want, chosen from what the documents hold. Review every type, waiver and
// bound before adopting it (docs/INFER.md); `schema check` with these models lists the
// documents that must change.
#![allow(dead_code)]

use mongo_schema::MongoSchema;
use serde::{Deserialize, Serialize};

/// `db_fleet.t_device`: 120 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_fleet", collection = "t_device", index(keys("serialNumber" = 1), unique, name = "serialNumber_1"), index(keys("retiredAt" = 1), name = "retiredAt_1", partial = r#"{"retiredAt":{"$exists":true}}"#))]
pub struct Device {
    /// 120 of 120: uuid 100%.
    #[serde(rename = "_id", with = "mongo_schema::serde_helpers::uuid_binary")]
    #[mongo(allow(random_id, reason = "the deployed `_id`s; changing them rewrites every document"))]
    pub id: uuid::Uuid,
    /// 120 of 120: string 100%.
    pub serial_number: String,
    /// 120 of 120: string 100%.
    pub model: DeviceModel,
    /// 120 of 120: string 100%.
    pub firmware: String,
    /// 120 of 120: object 100%.
    pub settings: DeviceSettings,
    /// 120 of 120: object 100%.
    #[mongo(max_properties = 5)]
    pub daily_usage: std::collections::BTreeMap<String, i32>,
    /// 120 of 120: array 100%.
    #[mongo(max_items = 5, items(max_items = 2))]
    pub readings: Vec<Vec<mongo_schema::bson::Bson>>,
    /// 120 of 120: array 100%.
    #[mongo(max_items = 5)]
    pub owner_ids: Vec<mongo_schema::bson::oid::ObjectId>,
    /// 96 of 120: object 100%.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<DeviceLocation>,
    /// 80 of 120: date 50%, null 50%.
    /// Missing in some documents and null in others: both admitted (`nullable`), both read as `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[mongo(nullable)]
    pub retired_at: Option<mongo_schema::bson::DateTime>,
}

/// The values of `model`: "T100" 37, "T200" 46, "X1" 37.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum DeviceModel {
    #[serde(rename = "T100")]
    T100,
    #[serde(rename = "T200")]
    T200,
    #[serde(rename = "X1")]
    X1,
}

/// The values of `settings.temperatureUnit`: "C" 64, "F" 56.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum DeviceSettingsTemperatureUnit {
    #[serde(rename = "C")]
    C,
    #[serde(rename = "F")]
    F,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceSettings {
    /// 120 of 120: int32 100%.
    pub report_every: i32,
    /// 120 of 120: string 100% (with `tempUnit`, its old key).
    /// Renamed from `tempUnit`, which `alias` still reads: migrations rename root fields only, so a data migration (`schema new-data --contract`) moves these.
    #[serde(alias = "tempUnit")]
    pub temperature_unit: DeviceSettingsTemperatureUnit,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
pub struct DeviceLocation {
    /// 96 of 96: double 100%.
    pub lat: f64,
    /// 96 of 96: double 100%.
    pub lng: f64,
}

/// `db_fleet.t_event`: 600 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(tag = "type")]
#[mongo(db = "db_fleet", collection = "t_event", index(keys("deviceId" = 1, "occurredAt" = -1), name = "deviceId_1_occurredAt_-1"))]
pub enum Event {
    /// `type: "login"`: 156 documents, with userId, ip, mfa.
    #[serde(rename = "login")]
    Login {
        /// 600 of 600: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 600 of 600: uuid 90%, string 10%.
        #[serde(rename = "deviceId", with = "mongo_schema::serde_helpers::uuid_binary")]
        device_id: uuid::Uuid,
        /// 600 of 600: date 100%.
        #[serde(rename = "occurredAt")]
        occurred_at: mongo_schema::bson::DateTime,
        /// 156 of 156: objectId 100%.
        #[serde(rename = "userId")]
        user_id: mongo_schema::bson::oid::ObjectId,
        /// 156 of 156: string 100%.
        ip: String,
        /// 88 of 156: bool 100%.
        #[serde(skip_serializing_if = "Option::is_none")]
        mfa: Option<bool>,
    },
    /// `type: "logout"`: 152 documents.
    #[serde(rename = "logout")]
    Logout {
        /// 600 of 600: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 600 of 600: uuid 90%, string 10%.
        #[serde(rename = "deviceId", with = "mongo_schema::serde_helpers::uuid_binary")]
        device_id: uuid::Uuid,
        /// 600 of 600: date 100%.
        #[serde(rename = "occurredAt")]
        occurred_at: mongo_schema::bson::DateTime,
    },
    /// `type: "pageView"`: 135 documents, with url, durationMs.
    #[serde(rename = "pageView")]
    PageView {
        /// 600 of 600: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 600 of 600: uuid 90%, string 10%.
        #[serde(rename = "deviceId", with = "mongo_schema::serde_helpers::uuid_binary")]
        device_id: uuid::Uuid,
        /// 600 of 600: date 100%.
        #[serde(rename = "occurredAt")]
        occurred_at: mongo_schema::bson::DateTime,
        /// 135 of 135: string 100%.
        url: String,
        /// 135 of 135: int32 76%, int64 24%.
        #[serde(rename = "durationMs")]
        duration_ms: i64,
    },
    /// `type: "purchase"`: 157 documents, with amount, currency, lines.
    #[serde(rename = "purchase")]
    Purchase {
        /// 600 of 600: objectId 100%.
        #[serde(rename = "_id")]
        id: mongo_schema::bson::oid::ObjectId,
        /// 600 of 600: uuid 90%, string 10%.
        #[serde(rename = "deviceId", with = "mongo_schema::serde_helpers::uuid_binary")]
        device_id: uuid::Uuid,
        /// 600 of 600: date 100%.
        #[serde(rename = "occurredAt")]
        occurred_at: mongo_schema::bson::DateTime,
        /// 157 of 157: decimal128 91%, double 9%.
        #[serde(with = "mongo_schema::serde_helpers::decimal128")]
        amount: rust_decimal::Decimal,
        /// 157 of 157: string 100%.
        currency: EventPurchaseCurrency,
        /// 157 of 157: array 100%.
        #[mongo(max_items = 5)]
        lines: Vec<EventPurchaseLines>,
    },
}

/// The values of `currency`: "EUR" 50, "JPY" 62, "USD" 45.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, MongoSchema)]
pub enum EventPurchaseCurrency {
    #[serde(rename = "EUR")]
    Eur,
    #[serde(rename = "JPY")]
    Jpy,
    #[serde(rename = "USD")]
    Usd,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
pub struct EventPurchaseLines {
    /// 324 of 324: string 100%.
    pub sku: String,
    /// 324 of 324: int32 98%, string 2%.
    pub qty: i32,
}

/// `db_fleet.t_session`: 200 documents read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, MongoSchema)]
#[serde(rename_all = "camelCase")]
#[mongo(db = "db_fleet", collection = "t_session", index(keys("startedAt" = 1), name = "startedAt_1", ttl = 2592000))]
pub struct Session {
    /// 200 of 200: objectId 100%.
    #[serde(rename = "_id")]
    pub id: mongo_schema::bson::oid::ObjectId,
    /// 200 of 200: uuid 100%.
    #[serde(with = "mongo_schema::serde_helpers::uuid_binary")]
    pub device_id: uuid::Uuid,
    /// 200 of 200: string 100%.
    pub trace_id: String,
    /// 200 of 200: date 100%.
    pub started_at: mongo_schema::bson::DateTime,
    /// 200 of 200: int32 100%.
    pub page_count: i32,
    /// 200 of 200: string 100%.
    pub user_agent: String,
    /// 150 of 200: date 100%.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<mongo_schema::bson::DateTime>,
}
