//! serde helpers that make the BSON the driver writes match the schema.
//!
//! `rust_decimal` has no BSON support of its own: its default `Serialize` writes a string.
//! [`decimal128`] writes a `Decimal` as a BSON Decimal128, exactly, and reads it back.
//! [`chrono_datetime`] and [`uuid_binary`] do for `chrono` and `uuid` what bson's own helpers
//! do, under one path that holds for either bson major (bson 2 and bson 3 name theirs
//! differently), with no bson feature turned on for them.
//!
//! Each writes the value through the winning major's type, and bson 2's and bson 3's types
//! write the same serde calls: the helpers write the same BSON to either major's serializer
//! (the driver's raw serializer or `to_document`), whichever the user's driver uses.

#[cfg(feature = "chrono-0_4")]
pub use chrono_helpers::{chrono_datetime, chrono_datetime_option};
#[cfg(feature = "uuid-1")]
pub use uuid_helpers::{uuid_binary, uuid_binary_option};

#[cfg(feature = "chrono-0_4")]
mod chrono_helpers {
    use crate::bson::DateTime;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    type Utc = chrono::DateTime<chrono::Utc>;

    fn to_bson(value: &Utc) -> DateTime {
        DateTime::from_millis(value.timestamp_millis())
    }

    fn from_bson<E: serde::de::Error>(value: DateTime) -> Result<Utc, E> {
        let ms = value.timestamp_millis();
        chrono::DateTime::from_timestamp_millis(ms)
            .ok_or_else(|| E::custom(format!("BSON date {ms} ms since the epoch is outside chrono's range")))
    }

    /// `#[serde(with = "mongo_schema::serde_helpers::chrono_datetime")]` on a
    /// `chrono::DateTime<Utc>`: stored as a BSON date (milliseconds; finer digits are dropped,
    /// as bson's own chrono helpers do).
    pub mod chrono_datetime {
        use super::*;

        /// Writes `value` as a BSON date.
        pub fn serialize<S: Serializer>(value: &Utc, serializer: S) -> Result<S::Ok, S::Error> {
            to_bson(value).serialize(serializer)
        }

        /// Reads a BSON date.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Utc, D::Error> {
            from_bson(DateTime::deserialize(deserializer)?)
        }
    }

    /// [`chrono_datetime`] for `Option<chrono::DateTime<Utc>>`: `None` is `null`.
    pub mod chrono_datetime_option {
        use super::*;

        /// Writes `Some` as a BSON date, `None` as `null`.
        pub fn serialize<S: Serializer>(value: &Option<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
            value.as_ref().map(to_bson).serialize(serializer)
        }

        /// Reads `null` (or a missing value, with `#[serde(default)]`) as `None`, else a BSON date.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Utc>, D::Error> {
            Option::<DateTime>::deserialize(deserializer)?.map(from_bson).transpose()
        }
    }
}

#[cfg(feature = "uuid-1")]
mod uuid_helpers {
    use crate::bson::spec::BinarySubtype;
    use crate::bson::Binary;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    fn to_bson(value: &uuid::Uuid) -> Binary {
        Binary { subtype: BinarySubtype::Uuid, bytes: value.as_bytes().to_vec() }
    }

    fn from_bson<E: serde::de::Error>(value: Binary) -> Result<uuid::Uuid, E> {
        match value.subtype {
            BinarySubtype::Uuid => uuid::Uuid::from_slice(&value.bytes).map_err(E::custom),
            other => Err(E::custom(format!("expected a UUID (binData subtype 4), found binData subtype {other:?}"))),
        }
    }

    /// `#[serde(with = "mongo_schema::serde_helpers::uuid_binary")]` on a `uuid::Uuid`: stored
    /// as binData subtype 4 (UUID), as bson's own UUID helpers do.
    pub mod uuid_binary {
        use super::*;

        /// Writes `value` as binData subtype 4.
        pub fn serialize<S: Serializer>(value: &uuid::Uuid, serializer: S) -> Result<S::Ok, S::Error> {
            to_bson(value).serialize(serializer)
        }

        /// Reads binData subtype 4.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<uuid::Uuid, D::Error> {
            from_bson(Binary::deserialize(deserializer)?)
        }
    }

    /// [`uuid_binary`] for `Option<uuid::Uuid>`: `None` is `null`.
    pub mod uuid_binary_option {
        use super::*;

        /// Writes `Some` as binData subtype 4, `None` as `null`.
        pub fn serialize<S: Serializer>(value: &Option<uuid::Uuid>, serializer: S) -> Result<S::Ok, S::Error> {
            value.as_ref().map(to_bson).serialize(serializer)
        }

        /// Reads `null` (or a missing value, with `#[serde(default)]`) as `None`, else binData subtype 4.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<uuid::Uuid>, D::Error> {
            Option::<Binary>::deserialize(deserializer)?.map(from_bson).transpose()
        }
    }
}

#[cfg(feature = "decimal")]
pub use decimal::{decimal128, decimal128_option, decimal_from_decimal128, decimal_to_decimal128, DecimalRangeError};

#[cfg(feature = "decimal")]
mod decimal {
    use crate::bson::{Bson, Decimal128};
    use rust_decimal::Decimal;
    use std::fmt;

    /// Exponent bias of IEEE 754-2008 decimal128.
    const BIAS: i32 = 6176;
    const COEFFICIENT_BITS: u32 = 113;

    /// A Decimal128 that a `rust_decimal::Decimal` cannot hold exactly.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DecimalRangeError(String);

    impl fmt::Display for DecimalRangeError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(
                f,
                "Decimal128 {} does not fit a rust_decimal::Decimal exactly (28 decimal places, 96-bit coefficient)",
                self.0
            )
        }
    }

    impl std::error::Error for DecimalRangeError {}

    /// The Decimal128 with the same coefficient, exponent and sign: exact, no rounding.
    pub fn decimal_to_decimal128(value: Decimal) -> Decimal128 {
        let coefficient = value.mantissa().unsigned_abs();
        let exponent = (BIAS - value.scale() as i32) as u128;
        let sign = u128::from(value.is_sign_negative());
        let bits = sign << 127 | exponent << COEFFICIENT_BITS | coefficient;
        Decimal128::from_bytes(bits.to_le_bytes())
    }

    /// The `Decimal` equal to a Decimal128, or an error when none is (NaN, infinities,
    /// more than 28 decimal places or a coefficient beyond 96 bits).
    pub fn decimal_from_decimal128(value: Decimal128) -> Result<Decimal, DecimalRangeError> {
        let bits = u128::from_le_bytes(value.bytes());
        let out_of_range = || DecimalRangeError(value.to_string());
        let negative = bits >> 127 == 1;
        // the five bits after the sign: 11111 NaN, 11110 infinity, 11xxx otherwise a
        // coefficient of 2^113 or more, beyond 10^34: non-canonical, read as zero
        let combination = (bits >> 122) & 0b11111;
        if combination >= 0b11110 {
            return Err(out_of_range());
        }
        if combination >> 3 == 0b11 {
            return Ok(signed(Decimal::ZERO, negative));
        }
        let mut exponent = ((bits >> COEFFICIENT_BITS) & 0x3fff) as i32 - BIAS;
        let mut coefficient = bits & ((1u128 << COEFFICIENT_BITS) - 1);
        while exponent > 0 {
            coefficient = coefficient.checked_mul(10).ok_or_else(out_of_range)?;
            exponent -= 1;
        }
        // trailing zeros carry no value: drop them while the number does not fit
        while exponent < 0
            && coefficient.is_multiple_of(10)
            && coefficient != 0
            && (exponent < -28 || coefficient >= 1 << 96)
        {
            coefficient /= 10;
            exponent += 1;
        }
        if coefficient == 0 {
            exponent = exponent.max(-28);
        }
        if exponent < -28 || coefficient >= 1 << 96 {
            return Err(out_of_range());
        }
        let decimal = Decimal::from_i128_with_scale(coefficient as i128, (-exponent) as u32);
        Ok(signed(decimal, negative))
    }

    fn signed(mut value: Decimal, negative: bool) -> Decimal {
        value.set_sign_negative(negative);
        value
    }

    fn from_bson<E: serde::de::Error>(value: Bson) -> Result<Decimal, E> {
        match value {
            Bson::Decimal128(d) => decimal_from_decimal128(d).map_err(E::custom),
            // data written before the helper was added: serde's default string form
            Bson::String(s) => s.parse().map_err(E::custom),
            other => Err(E::custom(format!("expected a Decimal128, found BSON {:?}", other.element_type()))),
        }
    }

    /// `#[serde(with = "mongo_schema::serde_helpers::decimal128")]` on a
    /// `rust_decimal::Decimal`: stored as BSON Decimal128, exactly. Reads Decimal128, and
    /// also the string serde wrote by default, so data from before the helper still loads.
    pub mod decimal128 {
        use super::*;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// Writes `value` as a Decimal128.
        pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
            decimal_to_decimal128(*value).serialize(serializer)
        }

        /// Reads a Decimal128 (or the string serde wrote without the helper).
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
            from_bson(Bson::deserialize(deserializer)?)
        }
    }

    /// [`decimal128`](super::decimal128) for `Option<Decimal>`: `None` is `null`.
    pub mod decimal128_option {
        use super::*;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// Writes `Some` as a Decimal128, `None` as `null`.
        pub fn serialize<S: Serializer>(value: &Option<Decimal>, serializer: S) -> Result<S::Ok, S::Error> {
            value.map(decimal_to_decimal128).serialize(serializer)
        }

        /// Reads `null` or a missing value as `None`, else as [`decimal128`](super::decimal128) does.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Decimal>, D::Error> {
            match Bson::deserialize(deserializer)? {
                Bson::Null | Bson::Undefined => Ok(None),
                other => from_bson(other).map(Some),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use proptest::prelude::*;
        use std::str::FromStr;

        fn any_decimal() -> impl Strategy<Value = Decimal> {
            (any::<i64>(), any::<u32>(), 0u32..=28).prop_map(|(lo, hi, scale)| {
                Decimal::from_i128_with_scale(((hi as i128) << 64 | lo as u64 as i128) % (1i128 << 95), scale)
            })
        }

        proptest! {
            #[test]
            fn round_trips_exactly(d in any_decimal()) {
                let back = decimal_from_decimal128(decimal_to_decimal128(d)).unwrap();
                prop_assert_eq!(back, d);
                prop_assert_eq!(back.scale(), d.scale());
            }

            #[test]
            fn agrees_with_bsons_own_parser(d in any_decimal()) {
                let parsed = Decimal128::from_str(&d.to_string()).unwrap();
                prop_assert_eq!(decimal_to_decimal128(d).to_string(), parsed.to_string());
            }
        }

        #[test]
        fn refuses_what_does_not_fit() {
            for s in ["NaN", "Infinity", "-Infinity", "1E-40", "12345678901234567890123456789012"] {
                let d = Decimal128::from_str(s).unwrap();
                assert!(decimal_from_decimal128(d).is_err(), "{s}");
            }
            let d = Decimal128::from_str("1.2300000000000000000000000000000E+5").unwrap();
            assert_eq!(decimal_from_decimal128(d).unwrap(), Decimal::from_str("123000").unwrap());
            assert_eq!(decimal_from_decimal128(Decimal128::from_str("-0").unwrap()).unwrap(), Decimal::ZERO);
        }
    }
}
