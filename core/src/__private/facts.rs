//! The facts of derived types, computed at compile time from their fields' facts: BSON
//! kind, nesting depth and worst-case encoded size.

use super::{size, BsonKind, FieldFacts, Keyword, SchemaFacts, Shape};

/// Facts of a struct (or struct variant) from its fields' facts: one level more than its
/// deepest field, and the sum of its elements' worst-case sizes with the fields' own bounds
/// (`max_length` on strings, `max_items` on arrays and sets). A flattened field's members
/// are the document's own. Written as one loop with few calls: every derived struct
/// evaluates it at compile time, and calls are what const evaluation pays for.
pub const fn object_facts(fields: Option<&[FieldFacts]>) -> SchemaFacts {
    let fields = match fields {
        Some(fields) => fields,
        None => &[],
    };
    let (mut depth, mut size, mut bounded) = (0, 5, true);
    let mut i = 0;
    while i < fields.len() {
        let (field, facts) = (&fields[i], &fields[i].facts);
        let levels = if field.flatten && facts.depth > 0 { facts.depth - 1 } else { facts.depth };
        if levels > depth {
            depth = levels;
        }
        // a string's greatest UTF-8 bytes: 4 a code point of `max_length`, or what a
        // fixed-width `pattern` admits, whichever is smaller
        let (mut string_bytes, mut max_items, mut k) = (None::<u64>, None, 0);
        while k < field.keywords.len() {
            let bound = match field.keywords[k] {
                Keyword::MaxLength(n) => Some(4 * n),
                Keyword::Pattern(pattern) => size::pattern_max_bytes(pattern),
                _ => None,
            };
            if let Some(bound) = bound {
                string_bytes = match string_bytes {
                    Some(bytes) if bytes < bound => Some(bytes),
                    _ => Some(bound),
                };
            }
            if let Keyword::MaxItems(n) = field.keywords[k] {
                max_items = Some(n);
            }
            k += 1;
        }
        // the items' strings, bounded by `items(max_length = ..)` or a fixed-width pattern
        let item_max_size = match (facts.item_kind, field.items.first()) {
            (BsonKind::String, Some(items)) => match string_bound(items) {
                Some(bytes) => Some(4 + bytes + 1),
                None => facts.item_max_size,
            },
            _ => facts.item_max_size,
        };
        let value = match (facts.kind, facts.shape, string_bytes) {
            _ if field.flatten => facts.max_size,
            (BsonKind::String, Shape::Scalar, Some(bytes)) => Some(4 + bytes + 1),
            (_, Shape::Array | Shape::Set, _) => size::array(max_items, item_max_size),
            _ => facts.max_size,
        };
        match value {
            Some(value) if !field.flatten => size += 1 + field.name.len() as u64 + 1 + value,
            Some(value) => size += value,
            None => bounded = false,
        }
        i += 1;
    }
    let mut facts = SchemaFacts::scalar(BsonKind::Object, if bounded { Some(size) } else { None });
    facts.shape = Shape::Document;
    facts.depth = depth + 1;
    facts
}

/// [`object_facts`] of a document the derive knows has no size bound (a field is a string
/// with no bound): only its depth is computed, from the fields at `nesting` (the others
/// are scalars or lists of them, of depth 0).
pub const fn unbounded_object_facts(fields: Option<&[FieldFacts]>, nesting: &[usize]) -> SchemaFacts {
    let fields = match fields {
        Some(fields) => fields,
        None => &[],
    };
    let (mut depth, mut i) = (0, 0);
    while i < nesting.len() {
        let field = &fields[nesting[i]];
        let levels = if field.flatten && field.facts.depth > 0 { field.facts.depth - 1 } else { field.facts.depth };
        if levels > depth {
            depth = levels;
        }
        i += 1;
    }
    let mut facts = SchemaFacts::scalar(BsonKind::Object, None);
    facts.shape = Shape::Document;
    facts.depth = depth + 1;
    facts
}

/// The greatest UTF-8 bytes of a string these keywords admit: 4 a code point of
/// `max_length`, or what a fixed-width `pattern` admits, whichever is smaller.
const fn string_bound(keywords: &[Keyword]) -> Option<u64> {
    let (mut bytes, mut k) = (None::<u64>, 0);
    while k < keywords.len() {
        let bound = match keywords[k] {
            Keyword::MaxLength(n) => Some(4 * n),
            Keyword::Pattern(pattern) => size::pattern_max_bytes(pattern),
            _ => None,
        };
        if let Some(bound) = bound {
            bytes = match bytes {
                Some(old) if old < bound => Some(old),
                _ => Some(bound),
            };
        }
        k += 1;
    }
    bytes
}

/// Facts of a tuple (struct or variant) from its elements' facts.
pub const fn tuple_facts(fields: &[SchemaFacts]) -> SchemaFacts {
    let mut facts = SchemaFacts::scalar(BsonKind::Array, Some(5));
    facts.shape = Shape::FixedArray;
    let mut i = 0;
    while i < fields.len() {
        facts.depth = size::max_depth(facts.depth, fields[i].depth);
        let header = size::element_header(index_len(i));
        facts.max_size = size::add(facts.max_size, size::add(Some(header), fields[i].max_size));
        i += 1;
    }
    facts
}

/// Digits of an array index as a BSON key.
const fn index_len(mut i: usize) -> usize {
    let mut digits = 1;
    while i >= 10 {
        i /= 10;
        digits += 1;
    }
    digits
}

/// Facts of one enum variant as written: `overhead` bytes of tag around the content, and
/// one more level when the tag wraps the content in a document.
pub const fn variant_facts(overhead: u64, wraps: bool, content: SchemaFacts) -> SchemaFacts {
    let mut facts = content;
    facts.max_size = size::add(Some(overhead), content.max_size);
    facts.depth += wraps as u32;
    // a unit variant is `null` only when nothing tags it
    facts.nullable = content.nullable && overhead == 0;
    facts
}

/// Facts of a data-carrying enum: the worst of its variants.
pub const fn enum_facts(kind: BsonKind, variants: &[SchemaFacts]) -> SchemaFacts {
    let mut facts = SchemaFacts::scalar(kind, Some(0));
    if matches!(kind, BsonKind::Object) {
        facts.shape = Shape::Document;
    }
    let mut i = 0;
    while i < variants.len() {
        facts.depth = size::max_depth(facts.depth, variants[i].depth);
        facts.max_size = size::max(facts.max_size, variants[i].max_size);
        facts.nullable = facts.nullable || variants[i].nullable;
        i += 1;
    }
    facts
}
