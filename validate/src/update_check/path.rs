//! An update path's components as mongod reads them (a field, an array index, `$`, `$[]`,
//! `$[<id>]`), and the checks mongod makes on a path while parsing an update.

use mongo_schema_contract::codes::{BAD_VALUE, EMPTY_FIELD_NAME};

use super::UpdateError;

/// The name as an array index, when it is one (digits only).
pub(crate) fn index(name: &str) -> Option<usize> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    name.parse().ok()
}

/// A path component.
pub(super) enum Part<'a> {
    Field(&'a str),
    Positional,
    Each(&'a str),
}

pub(super) fn part(component: &str) -> Part<'_> {
    if component == "$" {
        return Part::Positional;
    }
    match component.strip_prefix("$[").and_then(|rest| rest.strip_suffix(']')) {
        Some(id) => Part::Each(id),
        None => Part::Field(component),
    }
}

/// Checks a path as mongod does when parsing an update; its components.
pub(crate) fn check_path(path: &str) -> Result<Vec<&str>, UpdateError> {
    if path.is_empty() {
        return Err(UpdateError::refused(EMPTY_FIELD_NAME, "An empty update path is not valid."));
    }
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(UpdateError::refused(
            EMPTY_FIELD_NAME,
            format!("The update path '{path}' contains an empty field name, which is not allowed."),
        ));
    }
    match part(parts[0]) {
        Part::Positional => {
            return Err(UpdateError::refused(
                BAD_VALUE,
                format!("Cannot have positional (i.e. '$') element in the first component in path '{path}'"),
            ))
        }
        Part::Each(_) => {
            return Err(UpdateError::refused(
                BAD_VALUE,
                format!(
                "Cannot have array filter identifier (i.e. '$[<id>]') element in the first component in path '{path}'"
            ),
            ))
        }
        Part::Field(_) => {}
    }
    if parts.iter().filter(|p| **p == "$").count() > 1 {
        return Err(UpdateError::refused(
            BAD_VALUE,
            format!("Too many positional (i.e. '$') elements found in path '{path}'"),
        ));
    }
    Ok(parts)
}

/// Whether a path holds `$`, `$[]` or `$[<id>]` (which `$rename` refuses).
pub(crate) fn is_dynamic(path: &str) -> bool {
    path.split('.').any(|p| !matches!(part(p), Part::Field(_)))
}

/// The identifiers of `$[<id>]` in a path.
pub(crate) fn identifiers(path: &str) -> Vec<&str> {
    path.split('.')
        .filter_map(|p| match part(p) {
            Part::Each(id) if !id.is_empty() => Some(id),
            _ => None,
        })
        .collect()
}
