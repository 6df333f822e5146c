//! `path!(Model.field.$[].other)`: the segments as written, encoded in one string and
//! handed to a constant that walks the model's fields table at compile time (see
//! `mongo_schema::paths::FieldPath`). The macro knows no fields: it reads the syntax (and
//! reports what it cannot read at the token); the constant's evaluation reports a name
//! the table does not have.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::quote;

/// One segment: its kind (`f` a Rust field, `k` a key, `e` an element: the runtime's
/// encoding) and its text.
struct Segment {
    kind: char,
    text: String,
}

/// The expansion of `$crate; Model.segments...` (the runtime's `path!` passes its `$crate`
/// first); a compile error at the offending token for syntax it cannot read.
pub fn expand(input: TokenStream) -> TokenStream {
    match parse(input) {
        Ok((krate, model, segments)) => render(&krate, &model, &segments),
        Err(error) => error.to_compile_error(),
    }
}

type Parsed = (TokenStream, TokenStream, Vec<Segment>);

fn parse(input: TokenStream) -> syn::Result<Parsed> {
    let mut tokens = input.into_iter().peekable();
    let mut krate = TokenStream::new();
    for token in tokens.by_ref() {
        match token {
            TokenTree::Punct(p) if p.as_char() == ';' => break,
            other => krate.extend([other]),
        }
    }
    let mut model = TokenStream::new();
    let mut dot = None;
    for token in tokens.by_ref() {
        match token {
            TokenTree::Punct(p) if p.as_char() == '.' => {
                dot = Some(p.span());
                break;
            }
            other => model.extend([other]),
        }
    }
    if model.is_empty() {
        return Err(syn::Error::new(
            dot.unwrap_or_else(Span::call_site),
            "write the model first, then its fields: `path!(Customer.address.city)`",
        ));
    }
    let Some(dot) = dot else {
        return Err(syn::Error::new_spanned(
            &model,
            "name a field after the model: `path!(Customer.address)` (the model alone is the whole document)",
        ));
    };
    let mut segments = Vec::new();
    let mut after = dot;
    loop {
        let Some(token) = tokens.next() else {
            return Err(syn::Error::new(after, "a segment must follow the `.`"));
        };
        let parts: Vec<(char, String)> = match token {
            TokenTree::Ident(ident) => vec![('f', ident.to_string())],
            TokenTree::Punct(p) if p.as_char() == '$' => match tokens.peek() {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let text = match inner.as_slice() {
                        [] => "$[]".to_owned(),
                        [TokenTree::Ident(id)] if identifier(&id.to_string()) => format!("$[{id}]"),
                        _ => {
                            return Err(syn::Error::new(
                                g.span(),
                                "an array filter's identifier is a lowercase ASCII letter then letters or \
                                     digits, as mongod requires: `$[item]`; `$[]` is every element",
                            ))
                        }
                    };
                    tokens.next();
                    vec![('e', text)]
                }
                _ => vec![('e', "$".to_owned())],
            },
            TokenTree::Literal(literal) => literal_segments(literal)?,
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected a segment: a Rust field name, `$`, `$[]`, `$[id]`, an array index, or a key as a \
                     string (`\"key\"`) where the fields are not known",
                ))
            }
        };
        segments.extend(parts.into_iter().map(|(kind, text)| Segment { kind, text }));
        match tokens.next() {
            None => break,
            Some(TokenTree::Punct(p)) if p.as_char() == '.' => after = p.span(),
            Some(other) => {
                return Err(syn::Error::new(other.span(), "segments are joined by `.`: `path!(Customer.address.city)`"))
            }
        }
    }
    Ok((krate, model, segments))
}

/// An index (`3`), two indexes lexed as one number (`3.4`), or a string key.
fn literal_segments(literal: proc_macro2::Literal) -> syn::Result<Vec<(char, String)>> {
    let span = literal.span();
    match syn::Lit::new(literal) {
        syn::Lit::Int(int) if int.suffix().is_empty() && int.base10_digits() == int.to_string() => {
            Ok(vec![('e', int.base10_digits().to_owned())])
        }
        syn::Lit::Float(float)
            if float.suffix().is_empty()
                && float.to_string().split('.').count() == 2
                && float.to_string().split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) =>
        {
            Ok(float.to_string().split('.').map(|p| ('e', p.to_owned())).collect())
        }
        syn::Lit::Str(key) => {
            let value = key.value();
            if value.is_empty() || value.contains('.') || value.starts_with('$') || value.contains('\0') {
                return Err(syn::Error::new(
                    span,
                    "a key in a path is not empty and holds no '.' (mongod would read a path), no leading '$' \
                     (an operator) and no NUL",
                ));
            }
            Ok(vec![('k', value)])
        }
        _ => Err(syn::Error::new(span, "an array index is a plain decimal integer: `lines.0.sku`")),
    }
}

/// mongod's rule for an array filter identifier.
fn identifier(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_lowercase()) && bytes.all(|b| b.is_ascii_alphanumeric())
}

/// Tokens as written, without the spaces `to_string` puts between them.
fn compact(tokens: &TokenStream) -> String {
    tokens.to_string().chars().filter(|c| !c.is_whitespace()).collect()
}

fn render(krate: &TokenStream, model: &TokenStream, segments: &[Segment]) -> TokenStream {
    let p = quote!(#krate::__private);
    // one string for the segments, each after a '.', its kind first (no segment holds a '.')
    let encoded: Vec<String> = segments.iter().map(|s| format!("{}{}", s.kind, s.text)).collect();
    let encoded = encoded.join(".");
    let written = compact(model);
    // one constant a use, whose evaluation walks the table once and fails the build naming
    // the segment that does not fit: each item costs the compiler more than the walk
    quote! {{
        const __P: #p::FieldPath = #p::FieldPath::__new(&#p::path_resolve::<#model>(#written, #encoded));
        __P
    }}
}
