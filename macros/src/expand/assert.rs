//! The rules' assertions as const checks: each [`Assertion`] a `()` expression over the
//! facts, spanned at its field or type so a failing check is a compile error there.

use crate::ir::Container;
use crate::rules::{Assertion, Branch, Facts, Test};
use mongo_schema_contract::rules::check;
use proc_macro2::{Delimiter, Group, Ident, Spacing, Span, TokenStream};
use quote::{quote, TokenStreamExt};

use super::schema::field_facts;
use super::tokens::{parse_text, path, path_sep, spanned_punct};

/// An assertion as a `()` expression; `own` is the expression of the derived type's
/// facts, `owner` the type whose `FIELDS` it has (its name, or `Self`): a field's check
/// reads its facts there, so a field type without `MongoSchema` is reported once, by the
/// table.
pub(super) fn assertion(c: &Container, a: &Assertion, own: &TokenStream, owner: Option<&Ident>) -> TokenStream {
    let facts = || match &a.facts {
        Facts::Own => own.clone(),
        Facts::Root => {
            let ident = &c.input.ident;
            quote!(<#ident as _p::MongoSchema>::FACTS)
        }
        Facts::Field(field) => field_facts(field),
        Facts::Path(path) => {
            let lookup = lookup(c, path);
            quote!(_p::rules::facts_at(#lookup))
        }
    };
    match (&a.test, owner) {
        (Test::Branches(branches), _) => {
            let branches = branches.iter().map(|(test, message)| {
                let fail = match (test, message.split_once(crate::rules::LEVELS)) {
                    (Branch::DeeperThan(_), Some((before, after))) => {
                        spanned(a.span, quote!(_p::rules::fail_levels), quote!(#before, facts.depth, #after))
                    }
                    _ => spanned(a.span, quote!(_p::rules::fail), quote!(#message)),
                };
                let test = branch(c, test);
                quote!(if #test { #fail })
            });
            let facts = facts();
            quote!({
                let facts: _p::SchemaFacts = #facts;
                #(#branches)else*
            })
        }
        (Test::Field(checks, max_depth, Some(index)), Some(owner)) => {
            fields_check(owner, a.span, &[(*index, *checks, *max_depth)])
        }
        (Test::Field(checks, max_depth, _), _) if checks & check::KEYWORDS != 0 => {
            // the keywords are in the field's own facts: a one-field table (a variant's or
            // tuple field, rare)
            let Facts::Field(field) = &a.facts else { return quote!(()) };
            let ceiling = crate::policy::current().policy.max_depth;
            let table = quote!(::core::option::Option::Some(&[#field]));
            spanned(a.span, quote!(_p::rules::assert_field_at), quote!(#table, 0, #checks, #max_depth, #ceiling))
        }
        (Test::Field(checks, max_depth, _), _) => {
            let (facts, ceiling) = (facts(), crate::policy::current().policy.max_depth);
            spanned(a.span, quote!(_p::rules::assert_field), quote!(#facts, #checks, #max_depth, #ceiling))
        }
    }
}

/// `_p::rules::assert_fields(<Owner as _p::MongoSchema>::FIELDS, rest)`: one call spanning
/// the checked fields, from the first one's start to the last one's end, so a const panic
/// inside the `#[track_caller]` runtime function is reported over them (its message names
/// each failing field); the table's path is spanned at the first, so an error in the table
/// (a generic field type's own rule) is noted there. `each` is `(index, checks, max_depth)`
/// per field, written as text (no span needed).
pub(super) fn fields_check(owner: &Ident, (start, end): (Span, Span), each: &[(usize, u32, u32)]) -> TokenStream {
    let mut out = TokenStream::new();
    path(&mut out, &["_p", "rules", "assert_fields"], start);
    let mut args = TokenStream::new();
    args.append(spanned_punct('<', Spacing::Alone, start));
    let mut owner = owner.clone();
    owner.set_span(start);
    args.append(owner);
    args.append(Ident::new("as", start));
    path(&mut args, &["_p", "MongoSchema"], start);
    args.append(spanned_punct('>', Spacing::Alone, start));
    path_sep(&mut args, start);
    args.append(Ident::new("FIELDS", start));
    let each: Vec<String> =
        each.iter().map(|(index, checks, depth)| format!("({index}usize, {checks}u32, {depth}u32)")).collect();
    let ceiling = crate::policy::current().policy.max_depth;
    args.extend(parse_text(&format!(", &[{}], {ceiling}u32", each.join(", "))));
    let mut args = Group::new(Delimiter::Parenthesis, args);
    args.set_span(end);
    out.append(args);
    out
}

/// `_p::rules::path(<Root>::FIELDS, "a.b")`.
fn lookup(c: &Container, path: &str) -> TokenStream {
    let ident = &c.input.ident;
    quote!(_p::rules::path(<#ident as _p::MongoSchema>::FIELDS, #path))
}

/// A test over the local `facts`, as a `bool` expression.
fn branch(c: &Container, test: &Branch) -> TokenStream {
    match test {
        Branch::DeeperThan(max) => quote!(facts.depth > #max),
        Branch::TooLarge { timeseries } => {
            let limit = if *timeseries { quote!(MAX_TIMESERIES_DOCUMENT_SIZE) } else { quote!(MAX_DOCUMENT_SIZE) };
            quote!(_p::rules::exceeds(facts.max_size, _p::size::#limit))
        }
        Branch::Missing(path) => {
            let lookup = lookup(c, path);
            quote!(_p::rules::is_missing(#lookup))
        }
        Branch::NotAlwaysDate => quote!(!_p::rules::always(facts, _p::BsonKind::Date) && !_p::rules::is_unknown(facts)),
        Branch::SurelyNotDate => quote!(_p::rules::surely_not(facts, _p::BsonKind::Date)),
        Branch::ArrayKeys(paths) => {
            let ident = &c.input.ident;
            quote!(_p::rules::parallel_arrays(<#ident as _p::MongoSchema>::FIELDS, &[#(#paths),*]))
        }
        Branch::Monotonic(object_id) => quote!(_p::rules::is_monotonic(facts, #object_id)),
    }
}

/// `call(args)` as one expression spanning the field (or type), so a const panic inside
/// the `#[track_caller]` runtime function is reported there.
pub(super) fn spanned((start, end): (Span, Span), call: TokenStream, args: TokenStream) -> TokenStream {
    let call = respan(call, start);
    let mut args = Group::new(Delimiter::Parenthesis, args);
    args.set_span(end);
    quote!(#call #args)
}

/// `tokens` with every span set to `span`, groups included.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = inner.into();
            }
            token.set_span(span);
            token
        })
        .collect()
}
