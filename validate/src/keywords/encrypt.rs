//! `encrypt` (the value is client-side encrypted: binData subtype 6) and `encryptMetadata`
//! (checked for shape, no effect on matching). MongoDB manual, "encrypt Schema Keyword".

use mongo_schema_core::bson::{doc, Bson, Document};

use crate::error::SchemaError;
use crate::report::Explain;
use crate::schema::{type_set, Ctx, Keywords};
use crate::types::{Aliases, TypeSet};
use crate::value::View;

/// BSON binary subtype of encrypted values.
const ENCRYPTED: u8 = 6;

/// Algorithms of client-side field level encryption (the `algorithm` field).
const ALGORITHMS: &[&str] = &["AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic", "AEAD_AES_256_CBC_HMAC_SHA_512-Random"];

#[derive(Debug)]
pub(crate) struct Encrypt {
    /// `encrypt.bsonType`: the type the plaintext had, read from the FLE blob header.
    types: Option<TypeSet>,
}

impl Encrypt {
    /// `encrypt` and `encryptMetadata` are objects, never together; `encryptMetadata` is non-empty.
    pub(crate) fn parse(kw: &Keywords<'_>, ctx: Ctx<'_>) -> Result<Option<Encrypt>, SchemaError> {
        let (encrypt, metadata) = (kw.get("encrypt"), kw.get("encryptMetadata"));
        if encrypt.is_some() && metadata.is_some() {
            return Err(ctx.err("encrypt", "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'"));
        }
        if let Some(value) = metadata {
            parse_metadata(value, ctx)?;
        }
        encrypt.map(|value| parse_encrypt(value, ctx)).transpose()
    }

    /// binData subtype 6 and, with `bsonType`, a deterministic or random FLE blob whose header
    /// names one of the types (mongod's `$_internalSchemaBinDataEncryptedType`).
    pub(crate) fn matches<D, A>(&self, view: &View<'_, D, A>) -> bool {
        let View::Binary { subtype: ENCRYPTED, bytes } = *view else { return false };
        match self.types {
            None => true,
            Some(types) => blob_type(bytes).is_some_and(|t| types.contains(t)),
        }
    }

    pub(crate) fn explain<D, A>(&self, view: &View<'_, D, A>, at: &str, ex: &mut Explain<'_>, out: &mut Vec<Document>) {
        if self.matches(view) {
            return;
        }
        let encrypted = matches!(view, View::Binary { subtype: ENCRYPTED, .. });
        let reason = if encrypted { "encrypted value has wrong type" } else { "value was not encrypted" };
        ex.violation(at, "encrypt", reason);
        out.push(doc! { "operatorName": "encrypt", "reason": reason });
    }
}

/// The plaintext type byte of an FLE 1 blob: subtype (1 = deterministic, 2 = random),
/// 16 bytes of key id, then the original BSON type.
fn blob_type(bytes: &[u8]) -> Option<mongo_schema_core::bson::spec::ElementType> {
    match bytes {
        [1 | 2, rest @ ..] if rest.len() >= 17 => mongo_schema_core::bson::spec::ElementType::from(rest[16]),
        _ => None,
    }
}

fn parse_encrypt(value: &Bson, ctx: Ctx<'_>) -> Result<Encrypt, SchemaError> {
    let Bson::Document(info) = value else {
        return Err(ctx.err("encrypt", "$jsonSchema keyword 'encrypt' must be an object "));
    };
    let at = ctx.path("encrypt");
    let inner = Ctx { at: &at, top: ctx.top };
    let mut types = None;
    for (name, field) in info {
        match name.as_str() {
            "bsonType" => types = Some(type_set(field, inner, "bsonType", Aliases::Bson)?.set),
            "keyId" => parse_key_id(field, inner)?,
            "algorithm" => parse_algorithm(field, inner)?,
            other => return Err(inner.err(other, format!("BSON field 'encrypt.{other}' is an unknown field."))),
        }
    }
    Ok(Encrypt { types })
}

fn parse_metadata(value: &Bson, ctx: Ctx<'_>) -> Result<(), SchemaError> {
    let Bson::Document(meta) = value else {
        return Err(ctx.err("encryptMetadata", "$jsonSchema keyword 'encryptMetadata' must be an object "));
    };
    if meta.is_empty() {
        return Err(ctx.err("encryptMetadata", "$jsonSchema keyword 'encryptMetadata' cannot be an empty object "));
    }
    let at = ctx.path("encryptMetadata");
    let inner = Ctx { at: &at, top: ctx.top };
    for (name, field) in meta {
        match name.as_str() {
            "keyId" => parse_key_id(field, inner)?,
            "algorithm" => parse_algorithm(field, inner)?,
            other => return Err(inner.err(other, format!("BSON field 'encryptMetadata.{other}' is an unknown field."))),
        }
    }
    Ok(())
}

/// `keyId`: a JSON pointer string, or an array of UUIDs (binData subtype 4).
fn parse_key_id(value: &Bson, ctx: Ctx<'_>) -> Result<(), SchemaError> {
    let uuid = |v: &Bson| matches!(v, Bson::Binary(b) if u8::from(b.subtype) == 4);
    match value {
        Bson::String(pointer) if pointer.starts_with('/') => Ok(()),
        Bson::String(_) => Err(ctx.err("keyId", "JSONPointer must start with a '/'")),
        Bson::Array(ids) if ids.iter().all(uuid) => Ok(()),
        _ => Err(ctx.err("keyId", "Expected either a string or an array of UUIDs for keyId")),
    }
}

fn parse_algorithm(value: &Bson, ctx: Ctx<'_>) -> Result<(), SchemaError> {
    match value {
        Bson::String(name) if ALGORITHMS.contains(&name.as_str()) => Ok(()),
        _ => {
            Err(ctx
                .err("algorithm", format!("Enumeration value '{value}' for field 'algorithm' is not a valid value.")))
        }
    }
}
