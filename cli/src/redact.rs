//! Connection strings inside text (an error message, a line of source): where each one's
//! password is, so the CLI can redact it and the review can report it redacted. One reader
//! for both: a URI in prose ends at its path, its options, whitespace, a quote or a backtick.

use std::ops::Range;

/// A `mongodb://` or `mongodb+srv://` connection string with a password, in some text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "review"), allow(dead_code))] // where it starts and ends: what the review shows
pub(crate) struct Credential {
    /// Where the connection string starts (its scheme).
    pub start: usize,
    /// The password: after the user's `:`, up to the last `@` of the authority.
    pub password: Range<usize>,
    /// Where its authority ends (the hosts end there).
    pub end: usize,
}

/// Each connection string in `text` that carries a password (`user:password@`), in order.
pub(crate) fn credentials(text: &str) -> Vec<Credential> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some((at, scheme)) =
        ["mongodb://", "mongodb+srv://"].iter().filter_map(|s| text[from..].find(s).map(|i| (from + i, s.len()))).min()
    {
        let authority = at + scheme;
        let end = text[authority..]
            .find(|c: char| c == '/' || c == '?' || c.is_whitespace() || c == '"' || c == '\'' || c == '`')
            .map_or(text.len(), |e| authority + e);
        let within = &text[authority..end];
        if let Some((colon, last_at)) = within.rfind('@').and_then(|a| within[..a].find(':').map(|c| (c, a))) {
            found.push(Credential { start: at, password: authority + colon + 1..authority + last_at, end });
        }
        from = end.max(authority);
    }
    found
}

/// `text` with every connection string's password written `****`.
#[cfg(feature = "cli")]
pub(crate) fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for credential in credentials(text) {
        out.push_str(&text[copied..credential.password.start]);
        out.push_str("****");
        copied = credential.password.end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_found_up_to_the_last_at_of_the_authority() {
        let text = "x mongodb://u:p:q@r@h/db and `mongodb+srv://a:b@c` and mongodb://plain/";
        let found: Vec<&str> = credentials(text).iter().map(|c| &text[c.password.clone()]).collect();
        assert_eq!(found, ["p:q@r", "b"]);
        let first = &credentials(text)[0];
        assert_eq!(&text[first.start..first.end], "mongodb://u:p:q@r@h");
        #[cfg(feature = "cli")]
        assert_eq!(redact(text), "x mongodb://u:****@h/db and `mongodb+srv://a:****@c` and mongodb://plain/");
    }
}
