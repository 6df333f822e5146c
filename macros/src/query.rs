//! `query!(Model, { filter }, options...)`: a filter in `bson::doc!`'s syntax, read as
//! syntax only. The macro writes what it read as constant data (one `static` of
//! `query::Shape`), one `const` item whose evaluation checks every key and operator
//! against the model's fields table (each call spanned at its key, so a refusal is a build
//! error there) and runs the planner, the filter document built from the values (each
//! value checked by a trait spanned at it), and the query's registration. It knows no
//! model: what a key stores is the constant's business.

use mongo_schema_contract::query as q;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

/// The rules a query may waive with `allow(rule, reason = "..")`: the contract's, the ones
/// the planner raises at the query.
const WAIVABLE: &[&str] = mongo_schema_contract::rules::QUERY_RULES;

/// The expansion of `$crate; Model, { filter }, options...`.
pub fn expand(input: TokenStream) -> TokenStream {
    match parse(input) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

/// A predicate's operator, as `query::Op` (values left out).
#[derive(Debug, Clone)]
enum Op {
    Eq,
    EqNull,
    Ne,
    Gt,
    Gte,
    Lt,
    Lte,
    In { len: Option<u32>, null: bool },
    Nin,
    Exists(bool),
    Type,
    Regex { prefix: bool },
    Size,
    All,
    ElemMatch(Vec<Node>),
    ElemMatchValue(Vec<Op>),
    Mod,
    Not(Box<Op>),
    Near,
    GeoWithin,
}

/// A node of the filter tree, as `query::Filter`.
#[derive(Debug, Clone)]
enum Node {
    Pred { path: String, op: Op },
    And(Vec<Vec<Node>>),
    Or(Vec<Vec<Node>>),
    Nor(Vec<Vec<Node>>),
    Text,
    Opaque(String),
}

/// Where keys are read: the model's root, or the items of an array (`$elemMatch`).
#[derive(Clone)]
enum Scope {
    Root,
    Items(String),
}

struct Cx {
    p: TokenStream,
    bson: TokenStream,
    model: TokenStream,
    /// Const calls for the check item, each spanned at what it checks.
    checks: Vec<TokenStream>,
    /// One call per key of the filter (`key_ops`: its check, returning the class of its
    /// values), in the query's constant array `__K`.
    slots: Vec<TokenStream>,
    /// The slots whose class a value reads (each gets a type alias `__V{slot}`).
    used: Vec<bool>,
    /// The slot of the key whose value is being read.
    slot: usize,
    /// The literals compared with each slot's key, as `key_ops` reads them: `=` and a
    /// string, `#i` / `#f` / `#b` for an integer, float or bool literal.
    literals: Vec<Vec<String>>,
    /// `query::Literal`s of the top-level predicates (a partial index's expression is
    /// implied or not by them, as mongod decides with the values).
    top_literals: Vec<TokenStream>,
    /// How many `$and` / `$or` / `$nor` the filter being read is inside.
    depth: usize,
}

/// `tokens` with every span set to `span` (so that an error in a call built from them
/// points there: a call's span is its tokens' joined).
fn respan(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), respan(&g.stream(), span));
                group.set_span(span);
                TokenTree::Group(group)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

impl Cx {
    /// The runtime's items and the model, spanned at `span`.
    fn at(&self, span: Span) -> (TokenStream, TokenStream) {
        (respan(&self.p, span), respan(&self.model, span))
    }

    /// The kind type of the values of the current key (`__V{slot}`, an alias of the
    /// class its `key_ops` call returns).
    fn class(&mut self, span: Span) -> TokenStream {
        self.used[self.slot] = true;
        let alias = proc_macro2::Ident::new(&format!("__V{}", self.slot), span);
        quote!(#alias)
    }

    /// One value compared with `path`: checked by the trait, spanned at the value.
    fn value(&mut self, scope: &Scope, path: &str, value: &[TokenTree]) -> TokenStream {
        let span = first_span(value);
        if is_null(value) {
            let p = &self.p;
            return quote!(#p::Bson::Null);
        }
        if brace(value).is_some() || bracket(value).is_some() {
            // a document or an array literal, matched as written
            return self.raw(value);
        }
        let _ = (scope, path);
        // the literal's kind: a key whose tagged enum's variants store it as different
        // types is checked against each (`=` and the string, `#` and the kind)
        let marker = match value {
            [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
                syn::Lit::Str(text) => Some(format!("={}", text.value())),
                syn::Lit::Int(_) => Some("#i".to_owned()),
                syn::Lit::Float(_) => Some("#f".to_owned()),
                _ => None,
            },
            [TokenTree::Punct(minus), TokenTree::Literal(lit)] if minus.as_char() == '-' => {
                match syn::Lit::new(lit.clone()) {
                    syn::Lit::Int(_) => Some("#i".to_owned()),
                    syn::Lit::Float(_) => Some("#f".to_owned()),
                    _ => None,
                }
            }
            [TokenTree::Ident(b)] if b == "true" || b == "false" => Some("#b".to_owned()),
            _ => None,
        };
        if let Some(marker) = marker {
            if !self.literals[self.slot].contains(&marker) {
                self.literals[self.slot].push(marker);
            }
        }
        let kind = self.class(span);
        let p = respan(&self.p, span);
        let expr: TokenStream = value.iter().cloned().collect();
        quote_spanned!(span=> #p::value::<#kind, _>(#expr))
    }

    /// Records `value` compared with `path` by `op` when it is an integer, string or
    /// boolean literal of the query's top level.
    fn literal(&mut self, scope: &Scope, path: &str, op: &str, value: &[TokenTree]) {
        if self.depth > 0 || !matches!(scope, Scope::Root) {
            return;
        }
        let p = &self.p;
        let int = |lit: &proc_macro2::Literal| match syn::Lit::new(lit.clone()) {
            syn::Lit::Int(n) => n.base10_parse::<i64>().ok(),
            _ => None,
        };
        let value = match value {
            [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
                syn::Lit::Str(text) => {
                    let text = text.value();
                    quote!(#p::QueryLiteralValue::Str(#text))
                }
                syn::Lit::Int(_) => match int(lit) {
                    Some(n) => quote!(#p::QueryLiteralValue::Int(#n)),
                    None => return,
                },
                _ => return,
            },
            [TokenTree::Punct(minus), TokenTree::Literal(lit)] if minus.as_char() == '-' => match int(lit) {
                Some(n) => {
                    let n = -n;
                    quote!(#p::QueryLiteralValue::Int(#n))
                }
                None => return,
            },
            [TokenTree::Ident(b)] if b == "true" || b == "false" => {
                let b = b == "true";
                quote!(#p::QueryLiteralValue::Bool(#b))
            }
            _ => return,
        };
        self.top_literals.push(quote!(#p::QueryLiteral { path: #path, op: #op, value: #value }));
    }

    fn fixed(&self, kind: &str, value: &[TokenTree]) -> TokenStream {
        let span = first_span(value);
        let p = respan(&self.p, span);
        let kind = proc_macro2::Ident::new(kind, span);
        let expr: TokenStream = value.iter().cloned().collect();
        quote_spanned!(span=> #p::value::<#p::kinds::#kind, _>(#expr))
    }

    /// A value taken as `bson::bson!` takes it (no check).
    fn raw(&self, value: &[TokenTree]) -> TokenStream {
        let bson = &self.bson;
        let expr: TokenStream = value.iter().cloned().collect();
        quote!(#bson::bson!(#expr))
    }
}

fn first_span(tokens: &[TokenTree]) -> Span {
    tokens.first().map_or_else(Span::call_site, |t| t.span())
}

/// Splits a token list at its top-level commas (a turbofish's `<..>` kept whole).
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    let mut angle = 0usize;
    let mut colons = 0usize;
    for token in tokens {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' && angle == 0 => {
                parts.push(Vec::new());
                colons = 0;
                continue;
            }
            TokenTree::Punct(p) if p.as_char() == ':' => colons += 1,
            TokenTree::Punct(p) if p.as_char() == '<' && colons >= 2 => {
                angle += 1;
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == '>' && angle > 0 => {
                angle -= 1;
                colons = 0;
            }
            _ => colons = 0,
        }
        if let Some(last) = parts.last_mut() {
            last.push(token);
        }
    }
    if parts.last().is_some_and(Vec::is_empty) {
        parts.pop();
    }
    parts
}

/// `"key": value` entries of a `{ .. }` group.
fn entries(group: &Group) -> syn::Result<Vec<(String, Span, Vec<TokenTree>)>> {
    let mut out = Vec::new();
    for part in split_commas(group.stream()) {
        let span = first_span(&part);
        let (key, rest) = match part.as_slice() {
            [TokenTree::Literal(lit), TokenTree::Punct(colon), rest @ ..] if colon.as_char() == ':' => {
                match syn::Lit::new(lit.clone()) {
                    syn::Lit::Str(key) => (key.value(), rest),
                    _ => return Err(syn::Error::new(span, "a key is a string literal, as the model stores it: `\"customerId\": value`")),
                }
            }
            _ => {
                return Err(syn::Error::new(
                    span,
                    "expected `\"key\": value` (query! reads keys as string literals, as the model stores them, so that it can check them)",
                ))
            }
        };
        if rest.is_empty() {
            return Err(syn::Error::new(span, "a value must follow the `:`"));
        }
        out.push((key, span, rest.to_vec()));
    }
    Ok(out)
}

fn brace(value: &[TokenTree]) -> Option<&Group> {
    match value {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => Some(g),
        _ => None,
    }
}

fn bracket(value: &[TokenTree]) -> Option<&Group> {
    match value {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => Some(g),
        _ => None,
    }
}

fn is_null(value: &[TokenTree]) -> bool {
    matches!(value, [TokenTree::Ident(i)] if i == "null")
}

fn bool_literal(value: &[TokenTree]) -> Option<bool> {
    match value {
        [TokenTree::Ident(i)] if i == "true" => Some(true),
        [TokenTree::Ident(i)] if i == "false" => Some(false),
        _ => None,
    }
}

/// The document under `root` as `{ let mut d = Document::new(); d.insert(..); d }`.
fn document(cx: &Cx, inserts: Vec<(String, TokenStream)>) -> TokenStream {
    let p = &cx.p;
    let keys = inserts.iter().map(|(k, _)| k);
    let values = inserts.iter().map(|(_, v)| v);
    quote!({
        let mut __d = #p::Document::new();
        #( __d.insert(#keys, #values); )*
        __d
    })
}

/// A filter document (the query's, a branch of `$and`/`$or`/`$nor`, an `$elemMatch`'s).
fn filter(cx: &mut Cx, scope: &Scope, group: &Group) -> syn::Result<(Vec<Node>, TokenStream)> {
    let mut nodes = Vec::new();
    let mut inserts = Vec::new();
    for (key, span, value) in entries(group)? {
        match key.as_str() {
            "$and" | "$or" | "$nor" => {
                let Some(list) = bracket(&value) else {
                    return Err(syn::Error::new(
                        span,
                        format!("`{key}` takes an array of filter documents: `\"{key}\": [{{ .. }}, {{ .. }}]`"),
                    ));
                };
                let mut branches = Vec::new();
                let mut docs = Vec::new();
                for part in split_commas(list.stream()) {
                    let Some(g) = brace(&part) else {
                        return Err(syn::Error::new(
                            first_span(&part),
                            format!("each branch of `{key}` is a filter document `{{ .. }}`"),
                        ));
                    };
                    cx.depth += 1;
                    let branch = filter(cx, scope, g);
                    cx.depth -= 1;
                    let (branch, doc) = branch?;
                    branches.push(branch);
                    docs.push(doc);
                }
                if branches.is_empty() {
                    return Err(syn::Error::new(
                        span,
                        format!("`{key}` needs at least one branch (mongod refuses an empty array)"),
                    ));
                }
                let p = &cx.p;
                inserts.push((key.clone(), quote!(#p::Bson::Array(vec![#(#p::Bson::Document(#docs)),*]))));
                let flat = key == "$and" && branches.iter().flatten().all(|n| matches!(n, Node::Pred { .. }));
                match key.as_str() {
                    _ if flat => nodes.extend(branches.into_iter().flatten()),
                    "$and" => nodes.push(Node::And(branches)),
                    "$or" => nodes.push(Node::Or(branches)),
                    _ => nodes.push(Node::Nor(branches)),
                }
            }
            "$text" => {
                if let Scope::Items(_) = scope {
                    return Err(syn::Error::new(
                        span,
                        "`$text` is a top-level operator: it cannot be inside `$elemMatch`",
                    ));
                }
                let (p, model) = cx.at(span);
                cx.checks.push(quote_spanned!(span=> #p::query_check::text::<#model>()));
                inserts.push((key, cx.raw(&value)));
                nodes.push(Node::Text);
            }
            "$expr" | "$where" | "$comment" => {
                inserts.push((key.clone(), cx.raw(&value)));
                if key != "$comment" {
                    nodes.push(Node::Opaque(if key == "$expr" { "$expr".into() } else { "$where".into() }));
                }
            }
            other if other.starts_with('$') => {
                return Err(syn::Error::new(
                    span,
                    format!("`{other}` is not a top-level query operator: query! takes `$and`, `$or`, `$nor`, `$text`, `$expr`, `$where` and `$comment` there, and operators under a key (`\"key\": {{ \"{other}\": .. }}`)"),
                ));
            }
            _ => {
                check_key(&key, span)?;
                let slot = cx.slots.len();
                cx.slots.push(TokenStream::new());
                cx.used.push(false);
                cx.literals.push(Vec::new());
                let outer = std::mem::replace(&mut cx.slot, slot);
                let (ops, bson) = field(cx, scope, &key, &value)?;
                cx.slot = outer;
                let mut names: Vec<String> = ops.iter().flat_map(op_names).collect();
                names.extend(cx.literals[slot].iter().cloned());
                let bits = names.iter().fold(0u32, |bits, name| {
                    bits | match name.as_bytes()[0] {
                        b'=' => q::STRING_LITERAL,
                        b'#' => q::OTHER_LITERAL,
                        _ => q::op_bit(name),
                    }
                });
                // a separator no operator holds and a literal seldom does
                let names = names.join("\u{1f}");
                let (p, model) = cx.at(span);
                cx.slots[slot] = match scope {
                    Scope::Root => match key_words(&key, span) {
                        Some(words) => {
                            quote_spanned!(span=> #p::query_check::key_ops_at::<#model #words>(#key, #names, #bits))
                        }
                        None => quote_spanned!(span=> #p::query_check::key_ops::<#model>(#key, #names)),
                    },
                    Scope::Items(array) => {
                        quote_spanned!(span=> #p::query_check::elem_key_ops::<#model>(#array, #key, #names))
                    }
                };
                nodes.extend(ops.into_iter().map(|op| Node::Pred { path: key.clone(), op }));
                inserts.push((key, bson));
            }
        }
    }
    Ok((nodes, document(cx, inserts)))
}

/// The const generic arguments `, A, B` naming `key` (its bytes as two words) for the
/// checks that read `Key::<Model, A, B>::FACTS`, the key's facts evaluated once per crate
/// for each model and key; `None` for a key too long.
fn key_words(key: &str, span: Span) -> Option<TokenStream> {
    let (lo, hi) = q::key_words(key)?;
    let (mut lo, mut hi) = (proc_macro2::Literal::u128_unsuffixed(lo), proc_macro2::Literal::u128_unsuffixed(hi));
    lo.set_span(span);
    hi.set_span(span);
    Some(quote_spanned!(span=> , #lo, #hi))
}

/// The names `key_ops` checks for `op` (`@` before an operator on an array's elements).
fn op_names(op: &Op) -> Vec<String> {
    let name = match op {
        Op::Regex { .. } => "$regex",
        Op::Size => "$size",
        Op::All => "$all",
        Op::ElemMatch(_) => "$elemMatch",
        Op::ElemMatchValue(inner) => {
            let mut names = vec!["$elemMatch-values".to_owned()];
            names.extend(inner.iter().flat_map(op_names).map(|n| format!("@{n}")));
            return names;
        }
        Op::Gt | Op::Gte | Op::Lt | Op::Lte => "$gt",
        Op::Mod => "$mod",
        Op::Near => "$near",
        Op::Not(inner) => return op_names(inner),
        _ => return Vec::new(),
    };
    vec![name.to_owned()]
}

fn check_key(key: &str, span: Span) -> syn::Result<()> {
    if key.is_empty() || key.split('.').any(str::is_empty) || key.contains('\0') {
        return Err(syn::Error::new(span, "a key is not empty, has no empty segment (`a..b`) and no NUL"));
    }
    Ok(())
}

/// The value of a key: operators, or an equality.
fn field(cx: &mut Cx, scope: &Scope, path: &str, value: &[TokenTree]) -> syn::Result<(Vec<Op>, TokenStream)> {
    let p = cx.p.clone();
    if is_null(value) {
        return Ok((vec![Op::EqNull], quote!(#p::Bson::Null)));
    }
    if let Some(group) = brace(value) {
        let items = entries(group)?;
        let operators = items.iter().filter(|(k, ..)| k.starts_with('$')).count();
        if operators == 0 {
            // a whole embedded document, matched exactly
            return Ok((vec![Op::Eq], cx.raw(value)));
        }
        if operators != items.len() {
            return Err(syn::Error::new(
                group.span(),
                "a key's value is either operators (`{ \"$gte\": a }`) or a document matched exactly, not both: mongod reads the first key to decide",
            ));
        }
        let (ops, inserts) = operators_of(cx, scope, path, &items)?;
        let doc = document(cx, inserts);
        return Ok((ops, quote!(#p::Bson::Document(#doc))));
    }
    if bracket(value).is_some() {
        // a whole array, matched exactly
        return Ok((vec![Op::Eq], cx.raw(value)));
    }
    cx.literal(scope, path, "$eq", value);
    Ok((vec![Op::Eq], cx.value(scope, path, value)))
}

type Inserts = Vec<(String, TokenStream)>;

fn operators_of(
    cx: &mut Cx,
    scope: &Scope,
    path: &str,
    items: &[(String, Span, Vec<TokenTree>)],
) -> syn::Result<(Vec<Op>, Inserts)> {
    let p = cx.p.clone();
    let mut ops = Vec::new();
    let mut inserts = Vec::new();
    let options = items.iter().find(|(k, ..)| k == "$options").map(|(_, _, v)| v.clone());
    for (op, op_span, value) in items {
        let (op_kind, bson) = match op.as_str() {
            "$eq" if is_null(value) => (Op::EqNull, quote!(#p::Bson::Null)),
            "$eq" => {
                cx.literal(scope, path, "$eq", value);
                (Op::Eq, cx.value(scope, path, value))
            }
            "$ne" if is_null(value) => (Op::Ne, quote!(#p::Bson::Null)),
            "$ne" => (Op::Ne, cx.value(scope, path, value)),
            "$gt" | "$gte" | "$lt" | "$lte" => {
                let kind = match op.as_str() {
                    "$gt" => Op::Gt,
                    "$gte" => Op::Gte,
                    "$lt" => Op::Lt,
                    _ => Op::Lte,
                };
                cx.literal(scope, path, op, value);
                (kind, cx.value(scope, path, value))
            }
            "$in" | "$nin" | "$all" => {
                let (len, null, bson) = match bracket(value) {
                    Some(list) => {
                        let parts = split_commas(list.stream());
                        let null = parts.iter().any(|v| is_null(v));
                        let values: Vec<TokenStream> = parts
                            .iter()
                            .map(|v| if is_null(v) { quote!(#p::Bson::Null) } else { cx.value(scope, path, v) })
                            .collect();
                        (Some(parts.len() as u32), null, quote!(#p::Bson::Array(vec![#(#values),*])))
                    }
                    None => {
                        let span = first_span(value);
                        let kind = cx.class(span);
                        let p = respan(&p, span);
                        let expr: TokenStream = value.iter().cloned().collect();
                        (None, false, quote_spanned!(span=> #p::values::<#kind, _>(#expr)))
                    }
                };
                let kind = match op.as_str() {
                    "$in" => Op::In { len, null },
                    "$nin" => Op::Nin,
                    _ => Op::All,
                };
                (kind, bson)
            }
            "$exists" => match bool_literal(value) {
                Some(b) => (Op::Exists(b), quote!(#p::Bson::Boolean(#b))),
                None => return Err(syn::Error::new(*op_span, "`$exists` takes `true` or `false` (written: the index a query can use depends on it)")),
            },
            "$type" => (Op::Type, cx.raw(value)),
            "$regex" => {
                let prefix = regex_prefix(value, options.as_deref());
                (Op::Regex { prefix }, cx.fixed("Pattern", value))
            }
            "$options" => {
                if !items.iter().any(|(k, ..)| k == "$regex") {
                    return Err(syn::Error::new(*op_span, "`$options` goes with `$regex`: `{ \"$regex\": \"^ab\", \"$options\": \"i\" }`"));
                }
                inserts.push((op.clone(), cx.fixed("String", value)));
                continue;
            }
            "$size" => (Op::Size, cx.fixed("Count", value)),
            "$mod" => match bracket(value) {
                Some(list) if split_commas(list.stream()).len() == 2 => {
                    let parts = split_commas(list.stream());
                    let (d, r) = (cx.fixed("Count", &parts[0]), cx.fixed("Count", &parts[1]));
                    (Op::Mod, quote!(#p::Bson::Array(vec![#d, #r])))
                }
                _ => return Err(syn::Error::new(*op_span, "`$mod` takes `[divisor, remainder]`")),
            },
            "$elemMatch" => {
                let Some(group) = brace(value) else {
                    return Err(syn::Error::new(*op_span, "`$elemMatch` takes a document: keys of the items, or operators on them"));
                };
                let inner = entries(group)?;
                if !inner.is_empty() && inner.iter().all(|(k, ..)| k.starts_with('$') && !matches!(k.as_str(), "$and" | "$or" | "$nor")) {
                    let items_scope = scope.clone();
                    let (inner_ops, inner_inserts) = operators_of(cx, &items_scope, path, &inner)?;
                    let doc = document(cx, inner_inserts);
                    (Op::ElemMatchValue(inner_ops), quote!(#p::Bson::Document(#doc)))
                } else {
                    let items_scope = match scope {
                        Scope::Root => Scope::Items(path.to_owned()),
                        Scope::Items(outer) => Scope::Items(format!("{outer}.{path}")),
                    };
                    let (nodes, doc) = filter(cx, &items_scope, group)?;
                    (Op::ElemMatch(nodes), quote!(#p::Bson::Document(#doc)))
                }
            }
            "$not" => {
                if let Some(group) = brace(value) {
                    let inner = entries(group)?;
                    if inner.is_empty() || !inner.iter().all(|(k, ..)| k.starts_with('$')) {
                        return Err(syn::Error::new(*op_span, "`$not` takes operators (`{ \"$gt\": 5 }`) or a regex"));
                    }
                    let (inner_ops, inner_inserts) = operators_of(cx, scope, path, &inner)?;
                    let doc = document(cx, inner_inserts);
                    let first = inner_ops.into_iter().next().unwrap_or(Op::Eq);
                    (Op::Not(Box::new(first)), quote!(#p::Bson::Document(#doc)))
                } else {
                    (Op::Not(Box::new(Op::Regex { prefix: false })), cx.fixed("Pattern", value))
                }
            }
            "$near" | "$nearSphere" => (Op::Near, cx.raw(value)),
            "$geoWithin" | "$geoIntersects" => (Op::GeoWithin, cx.raw(value)),
            "$maxDistance" | "$minDistance" => {
                inserts.push((op.clone(), cx.raw(value)));
                continue;
            }
            "$expr" | "$where" | "$text" => {
                return Err(syn::Error::new(*op_span, format!("`{op}` is a top-level operator: write it beside the keys, not under `{path}`")))
            }
            other => {
                return Err(syn::Error::new(
                    *op_span,
                    format!(
                        "`{other}` is not a query operator query! knows: it takes $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $type, $regex (with $options), $size, $all, $elemMatch, $not, $mod, $near, $nearSphere, $geoWithin, $geoIntersects under a key"
                    ),
                ))
            }
        };
        ops.push(op_kind);
        inserts.push((op.clone(), bson));
    }
    Ok((ops, inserts))
}

/// A literal pattern anchored at the start with a literal character next, and no option
/// that undoes the prefix (`i`, `m`, `x`): the only regex mongod gives index bounds.
fn regex_prefix(value: &[TokenTree], options: Option<&[TokenTree]>) -> bool {
    let literal = |v: &[TokenTree]| match v {
        [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
            syn::Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        _ => None,
    };
    let Some(pattern) = literal(value) else { return false };
    let options_ok = match options {
        None => true,
        Some(o) => literal(o).is_some_and(|o| !o.contains(['i', 'm', 'x'])),
    };
    let mut chars = pattern.chars();
    options_ok && chars.next() == Some('^') && chars.next().is_some_and(|c| !".*+?()[]{}|\\$^".contains(c))
}

fn render_op(p: &TokenStream, op: &Op) -> TokenStream {
    match op {
        Op::Eq => quote!(#p::Op::Eq),
        Op::EqNull => quote!(#p::Op::EqNull),
        Op::Ne => quote!(#p::Op::Ne),
        Op::Gt => quote!(#p::Op::Gt),
        Op::Gte => quote!(#p::Op::Gte),
        Op::Lt => quote!(#p::Op::Lt),
        Op::Lte => quote!(#p::Op::Lte),
        Op::In { len, null } => {
            let len = match len {
                Some(n) => quote!(::core::option::Option::Some(#n)),
                None => quote!(::core::option::Option::None),
            };
            quote!(#p::Op::In { len: #len, null: #null })
        }
        Op::Nin => quote!(#p::Op::Nin),
        Op::Exists(b) => quote!(#p::Op::Exists(#b)),
        Op::Type => quote!(#p::Op::Type),
        Op::Regex { prefix } => quote!(#p::Op::Regex { prefix: #prefix }),
        Op::Size => quote!(#p::Op::Size),
        Op::All => quote!(#p::Op::All),
        Op::ElemMatch(nodes) => {
            let nodes = nodes.iter().map(|n| render_node(p, n));
            quote!(#p::Op::ElemMatch(&[#(#nodes),*]))
        }
        Op::ElemMatchValue(ops) => {
            let ops = ops.iter().map(|o| render_op(p, o));
            quote!(#p::Op::ElemMatchValue(&[#(#ops),*]))
        }
        Op::Mod => quote!(#p::Op::Mod),
        Op::Not(inner) => {
            let inner = render_op(p, inner);
            quote!(#p::Op::Not(&#inner))
        }
        Op::Near => quote!(#p::Op::Near),
        Op::GeoWithin => quote!(#p::Op::GeoWithin),
    }
}

fn render_pred(p: &TokenStream, path: &str, op: &Op) -> TokenStream {
    let op = render_op(p, op);
    quote!(#p::Pred { path: #path, op: #op })
}

fn render_node(p: &TokenStream, node: &Node) -> TokenStream {
    let branches = |list: &Vec<Vec<Node>>| {
        let each = list.iter().map(|b| {
            let nodes = b.iter().map(|n| render_node(p, n));
            quote!(&[#(#nodes),*])
        });
        quote!(&[#(#each),*])
    };
    match node {
        Node::Pred { path, op, .. } => {
            let pred = render_pred(p, path, op);
            quote!(#p::Filter::Pred(#pred))
        }
        Node::And(list) => {
            let b = branches(list);
            quote!(#p::Filter::And(#b))
        }
        Node::Or(list) => {
            let b = branches(list);
            quote!(#p::Filter::Or(#b))
        }
        Node::Nor(list) => {
            let b = branches(list);
            quote!(#p::Filter::Nor(#b))
        }
        Node::Text => quote!(#p::Filter::Text),
        Node::Opaque(name) => quote!(#p::Filter::Opaque(#name)),
    }
}

/// Checks of the keys inside `$and`/`$or`/`$nor` branches: collected while parsing (each
/// key's own `pred` call), so nothing more here.
fn parse(input: TokenStream) -> syn::Result<TokenStream> {
    let mut tokens = input.into_iter();
    let mut krate = TokenStream::new();
    for token in tokens.by_ref() {
        match token {
            TokenTree::Punct(p) if p.as_char() == ';' => break,
            other => krate.extend([other]),
        }
    }
    let parts = split_commas(tokens.collect());
    let mut parts = parts.into_iter();
    let model: Vec<TokenTree> = parts.next().unwrap_or_default();
    if model.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            "write the model first, then the filter: `query!(Order, { \"status\": \"Paid\" })`",
        ));
    }
    let Some(filter_tokens) = parts.next() else {
        return Err(syn::Error::new(
            first_span(&model),
            "a filter document follows the model: `query!(Order, { \"status\": \"Paid\" })` (`{}` for every document)",
        ));
    };
    let Some(filter_group) = brace(&filter_tokens).cloned() else {
        return Err(syn::Error::new(
            first_span(&filter_tokens),
            "the filter is a document in `doc!`'s syntax: `{ \"key\": value, .. }`",
        ));
    };
    let model_tokens: TokenStream = model.iter().cloned().collect();
    // the expansion's one name for the runtime: `$crate` cannot take another span, and a
    // check's tokens must all be spanned at its key
    let p = quote!(__query_rt);
    let mut cx = Cx {
        p: p.clone(),
        bson: quote!(#krate::bson),
        model: model_tokens.clone(),
        checks: Vec::new(),
        slots: Vec::new(),
        used: Vec::new(),
        slot: 0,
        literals: Vec::new(),
        top_literals: Vec::new(),
        depth: 0,
    };
    let (nodes, filter_doc) = filter(&mut cx, &Scope::Root, &filter_group)?;

    // options
    let mut sort: Vec<(String, bool)> = Vec::new();
    let mut projection: Vec<(String, bool)> = Vec::new();
    let mut typed_projection: Option<TokenStream> = None;
    let (mut limit, mut skip, mut name) = (None::<u64>, None::<u64>, None::<String>);
    let mut allow: Vec<(String, String)> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for option in parts {
        let span = first_span(&option);
        let (key, value) = match option.as_slice() {
            [TokenTree::Ident(key), TokenTree::Punct(eq), value @ ..] if eq.as_char() == '=' && !value.is_empty() => {
                (key.to_string(), value.to_vec())
            }
            [TokenTree::Ident(key), TokenTree::Group(g)] if key == "allow" && g.delimiter() == Delimiter::Parenthesis => {
                allow.push(waiver(g)?);
                continue;
            }
            _ => {
                return Err(syn::Error::new(
                    span,
                    "expected an option: `sort = { \"key\": 1 }`, `projection = { \"key\": 1 }` or `projection = Type`, `limit = N`, `skip = N`, `name = \"..\"`, `allow(rule, reason = \"..\")`",
                ))
            }
        };
        if seen.contains(&key) {
            return Err(syn::Error::new(span, format!("`{key}` is given twice")));
        }
        seen.push(key.clone());
        match key.as_str() {
            "sort" => {
                let Some(group) = brace(&value) else {
                    return Err(syn::Error::new(span, "`sort` takes a document of keys and directions: `sort = { \"createTime\": -1 }`"));
                };
                for (k, kspan, v) in entries(group)? {
                    check_key(&k, kspan)?;
                    let ascending = match v.iter().map(|t| t.to_string()).collect::<String>().as_str() {
                        "1" => true,
                        "-1" => false,
                        _ => return Err(syn::Error::new(first_span(&v), "a sort direction is `1` (ascending) or `-1` (descending)")),
                    };
                    let (p, model) = cx.at(kspan);
                    cx.checks.push(match key_words(&k, kspan) {
                        Some(words) => quote_spanned!(kspan=> #p::query_check::sort_at::<#model #words>(#k)),
                        None => quote_spanned!(kspan=> #p::query_check::sort::<#model>(#k)),
                    });
                    sort.push((k, ascending));
                }
                if sort.is_empty() {
                    return Err(syn::Error::new(span, "an empty `sort`: leave the option out"));
                }
            }
            "projection" => {
                if let Some(group) = brace(&value) {
                    for (k, kspan, v) in entries(group)? {
                        check_key(&k, kspan)?;
                        let included = match v.iter().map(|t| t.to_string()).collect::<String>().as_str() {
                            "1" | "true" => true,
                            "0" | "false" => false,
                            _ => return Err(syn::Error::new(first_span(&v), "a projection key takes `1` (included) or `0` (excluded)")),
                        };
                        let (p, model) = cx.at(kspan);
                        cx.checks.push(match key_words(&k, kspan) {
                            Some(words) => quote_spanned!(kspan=> #p::query_check::projection_at::<#model #words>(#k)),
                            None => quote_spanned!(kspan=> #p::query_check::projection::<#model>(#k)),
                        });
                        projection.push((k, included));
                    }
                    let excluded = projection.iter().filter(|(k, inc)| !inc && k != "_id").count();
                    let included = projection.iter().filter(|(_, inc)| *inc).count();
                    if excluded > 0 && included > 0 {
                        return Err(syn::Error::new(group.span(), "a projection either includes keys or excludes them (`_id` aside): mongod refuses both"));
                    }
                } else {
                    typed_projection = Some(value.iter().cloned().collect());
                }
            }
            "limit" | "skip" => {
                let n = match value.as_slice() {
                    [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
                        syn::Lit::Int(int) => int.base10_parse::<u64>().ok(),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(n) = n else {
                    return Err(syn::Error::new(first_span(&value), format!("`{key}` takes an integer literal: the planner reads it at compile time")));
                };
                if key == "limit" {
                    if n == 0 {
                        return Err(syn::Error::new(first_span(&value), "`limit = 0` is no limit to mongod: leave the option out"));
                    }
                    limit = Some(n);
                } else {
                    skip = Some(n);
                }
            }
            "name" => match value.as_slice() {
                [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
                    syn::Lit::Str(s) if !s.value().is_empty() => name = Some(s.value()),
                    _ => return Err(syn::Error::new(first_span(&value), "`name` takes a non-empty string literal")),
                },
                _ => return Err(syn::Error::new(first_span(&value), "`name` takes a non-empty string literal")),
            },
            other => {
                return Err(syn::Error::new(
                    span,
                    format!("`{other}` is not an option of query!: it takes `sort`, `projection`, `limit`, `skip`, `name` and `allow(rule, reason = \"..\")`"),
                ))
            }
        }
    }

    let model = &cx.model;
    let written: String = model_tokens.to_string().chars().filter(|c| !c.is_whitespace()).collect();
    let filter_nodes = nodes.iter().map(|n| render_node(&p, n));
    let top_literals = std::mem::take(&mut cx.top_literals);
    let sort_items = sort.iter().map(|(k, asc)| match asc {
        true => quote!((#k, #p::Direction::Ascending)),
        false => quote!((#k, #p::Direction::Descending)),
    });
    let (projection_items, typed) = match &typed_projection {
        Some(ty) => {
            let span = ty.clone().into_iter().next().map_or_else(Span::call_site, |t| t.span());
            let (sp, smodel) = cx.at(span);
            let sty = respan(ty, span);
            cx.checks.push(quote_spanned!(span=> #sp::query_check::typed_projection::<#smodel, #sty>()));
            (
                quote!(&__PROJECTION),
                quote! {
                    const __PROJECTION_LEN: usize = #p::query_check::projection_len::<#ty>();
                    static __PROJECTION: [(&str, bool); __PROJECTION_LEN] = #p::query_check::projection_keys::<#ty, __PROJECTION_LEN>();
                },
            )
        }
        None => {
            let items = projection.iter().map(|(k, inc)| quote!((#k, #inc)));
            (quote!(&[#(#items),*]), TokenStream::new())
        }
    };
    let option_u64 = |v: Option<u64>| match v {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let (limit, skip) = (option_u64(limit), option_u64(skip));
    let name = match name {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let allow_items = allow.iter().map(|(rule, reason)| quote!((#rule, #reason)));
    let checks = &cx.checks;
    let (slots, count) = (&cx.slots, cx.slots.len());
    let aliases = cx.used.iter().enumerate().filter(|(_, used)| **used).map(|(i, _)| {
        let alias = proc_macro2::Ident::new(&format!("__V{i}"), Span::call_site());
        quote!(type #alias = <#p::Class<{ __K[#i] }> as #p::Kind>::Is;)
    });
    let driver = match crate::policy::driver() {
        Some(driver) => {
            let driver = proc_macro2::Ident::new(&driver, Span::call_site());
            quote!((::#driver::options::FindOptions, ::#driver::options::CountOptions))
        }
        None => quote!(()),
    };
    let call = Span::call_site();
    // generic over the model: the planner reads the model's index facts from
    // `Planned::<Model>::FACTS`, evaluated once per model and crate, not per query
    let enforce = quote_spanned!(call=> #p::query_enforce_on::<#model>(&__QUERY.shape, #written));
    Ok(quote! {{
        use #krate::__private as __query_rt;
        #typed
        // the query's one static: its shape, and its registration for `schema queries` (a
        // `linkme` element, gathered by the linker; `inventory` cost three items a query)
        #p::MONGO_SCHEMA_QUERIES! {
            #![linkme_macro = #p::MONGO_SCHEMA_QUERIES]
            static __QUERY: #p::RegisteredQuery = #p::RegisteredQuery {
                rust_type: #written,
                model: #p::Registration::of::<#model>,
                shape: #p::QueryShape {
                    filter: &[#(#filter_nodes),*],
                    sort: &[#(#sort_items),*],
                    projection: #projection_items,
                    limit: #limit,
                    skip: #skip,
                    name: #name,
                    allow: &[#(#allow_items),*],
                    literals: &[#(#top_literals),*],
                    module: ::core::module_path!(),
                    file: ::core::file!(),
                    line: ::core::line!(),
                },
            };
        }
        const __K: [u8; #count] = {
            #(#checks;)*
            [#(#slots),*]
        };
        // Planned apart, after the checks: a query whose key, operator or literal is wrong
        // fails in `__K` and is not planned (its error is the only one shown), and one whose
        // value has a wrong type keeps that error (E0277 needs `__K`'s classes).
        const _: () = {
            let _checked: [u8; #count] = __K;
            #enforce;
        };
        #(#aliases)*
        #p::Query::<#driver>::__new(&__QUERY.shape, #filter_doc)
    }})
}

/// `allow(rule, reason = "..")`.
fn waiver(group: &Group) -> syn::Result<(String, String)> {
    let parts = split_commas(group.stream());
    let usage = "`allow(query_unindexed, reason = \"why this query may scan\")`";
    let rule = match parts.first().map(Vec::as_slice) {
        Some([TokenTree::Ident(rule)]) => rule.clone(),
        _ => return Err(syn::Error::new(group.span(), format!("write the rule, then the reason: {usage}"))),
    };
    let id = rule.to_string();
    if !WAIVABLE.contains(&id.as_str()) {
        let query_rules = WAIVABLE.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", ");
        use mongo_schema_contract::rules::{UNWAIVABLE_RULES, WAIVABLE_RULES};
        // a model's rule is checked on the model, never at a query: say where it is waived
        let message = if WAIVABLE_RULES.contains(&id.as_str()) {
            format!(
                "`{rule}` is a rule of the model, checked where the model is declared: waive it there with `#[mongo(allow({rule}, reason = \"..\"))]`; a query waives {query_rules}"
            )
        } else if let Some((_, why)) = UNWAIVABLE_RULES.iter().find(|(r, _)| *r == id) {
            format!("`{rule}` is a rule of the model that is never waived ({why}); a query waives {query_rules}")
        } else {
            format!("`{rule}` is not a rule a query can waive: {query_rules} are")
        };
        return Err(syn::Error::new(rule.span(), message));
    }
    let reason = match parts.get(1).map(Vec::as_slice) {
        Some([TokenTree::Ident(key), TokenTree::Punct(eq), TokenTree::Literal(lit)])
            if key == "reason" && eq.as_char() == '=' =>
        {
            match syn::Lit::new(lit.clone()) {
                syn::Lit::Str(s) if !s.value().trim().is_empty() => s.value(),
                _ => return Err(syn::Error::new(lit.span(), format!("the reason is a non-empty string: {usage}"))),
            }
        }
        _ => return Err(syn::Error::new(rule.span(), format!("a waiver says why: {usage}"))),
    };
    if parts.len() > 2 {
        return Err(syn::Error::new(group.span(), format!("a waiver is a rule and a reason: {usage}")));
    }
    Ok((rule.to_string(), reason))
}
