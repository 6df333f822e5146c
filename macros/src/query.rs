//! `query!(Model, { filter }, options...)`: a filter in `bson::doc!`'s syntax, read as
//! syntax only. The macro writes what it read as constant data (one `static` of
//! `query::Shape`), one `const` item whose evaluation checks every key and operator
//! against the model's fields table (each call spanned at its key, so a refusal is a build
//! error there) and runs the planner, the filter document built from the values (each
//! value checked by a trait spanned at it), and the query's registration. It knows no
//! model: what a key stores is the constant's business.

use mongo_schema_contract::query as q;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;

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
    bson: TokenStream,
    model: TokenStream,
    /// The model's tokens as source text, when they print as such (`None`: a `$crate` path).
    model_text: Option<String>,
    /// Const calls for the check item, each spanned at what it checks.
    checks: Vec<TokenStream>,
    /// One call per key of the filter (`key_ops`: its check, returning the class of its
    /// values), in the query's constant array `__K`.
    slots: Vec<TokenStream>,
    /// Each slot's class as the key's memoized facts give it (`Key::<Model, A, B>::FACTS`),
    /// where the key has them: its alias reads them, not `__K`.
    facts: Vec<Option<String>>,
    /// The slots whose class a value reads (each gets a type alias `__V{slot}`).
    used: Vec<bool>,
    /// The slot of the key whose value is being read.
    slot: usize,
    /// The literals compared with each slot's key, as `key_ops` reads them: `=` and a
    /// string, `#i` / `#f` / `#b` for an integer, float or bool literal.
    literals: Vec<Vec<String>>,
    /// `query::Literal`s of the top-level predicates (a partial index's expression is
    /// implied or not by them, as mongod decides with the values).
    top_literals: Vec<String>,
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

/// An expansion written as source text where its tokens carry no span of the user's (each
/// token `quote!` builds is a call across the proc-macro bridge, run unoptimized in a
/// debug build; a chunk of text is one call, lexed by rustc), with the user's tokens and
/// the spanned checks spliced in. Text gets `Span::call_site()`, as `quote!` gives.
#[derive(Default)]
struct Out {
    /// The chunks written in the innermost open group (or at the top), concatenated once
    /// when it closes: each concatenation is a call that copies what it joins.
    done: Vec<TokenStream>,
    text: String,
    /// The groups opened and not closed: each one's delimiter and the chunks before it.
    open: Vec<(Delimiter, Vec<TokenStream>)>,
}

impl Out {
    /// Source text: every delimiter it opens it closes (groups around spliced tokens are
    /// [`Out::open`] and [`Out::close`]).
    fn s(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Tokens as they are.
    fn t(&mut self, tokens: TokenStream) -> &mut Self {
        self.flush();
        self.done.push(tokens);
        self
    }

    fn open(&mut self, delimiter: Delimiter) -> &mut Self {
        self.flush();
        let before = std::mem::take(&mut self.done);
        self.open.push((delimiter, before));
        self
    }

    fn close(&mut self) -> &mut Self {
        self.flush();
        if let Some((delimiter, before)) = self.open.pop() {
            let inner = std::mem::replace(&mut self.done, before);
            let group = Group::new(delimiter, inner.into_iter().collect());
            self.done.push(TokenTree::Group(group).into());
        }
        self
    }

    fn flush(&mut self) {
        if !self.text.is_empty() {
            self.done.push(text(&self.text));
            self.text.clear();
        }
    }

    fn finish(mut self) -> TokenStream {
        self.flush();
        while !self.open.is_empty() {
            self.close();
        }
        self.done.into_iter().collect()
    }
}

/// `__query_rt::Bson::Document(doc)`.
fn bson_document(doc: TokenStream) -> TokenStream {
    let mut out = Out::default();
    out.s("__query_rt::Bson::Document").open(Delimiter::Parenthesis).t(doc).close();
    out.finish()
}

/// `__query_rt::Bson::Array(vec![items..])`.
fn bson_array(items: impl IntoIterator<Item = TokenStream>) -> TokenStream {
    let mut out = Out::default();
    out.s("__query_rt::Bson::Array").open(Delimiter::Parenthesis).s("vec!");
    out.open(Delimiter::Bracket);
    for item in items {
        out.t(item).s(",");
    }
    out.close().close();
    out.finish()
}

/// `__query_rt::Bson::Null`.
fn bson_null() -> TokenStream {
    text("__query_rt::Bson::Null")
}

/// The macro's own source text as tokens (call-site spans). Inside a macro, rustc lexes it:
/// `proc_macro2`'s `FromStr` would first lex it again with its own lexer, unoptimized, to
/// catch an error the text (its strings written by `{:?}`) cannot have.
fn text(source: &str) -> TokenStream {
    if proc_macro::is_available() {
        if let Ok(tokens) = source.parse::<proc_macro::TokenStream>() {
            return tokens.into();
        }
    }
    source.parse().unwrap_or_default()
}

/// `callee(args)` spanned at `span`, `args` as they are (a value's tokens keep theirs).
fn call_at(span: Span, callee: &str, args: TokenStream) -> TokenStream {
    let mut group = Group::new(Delimiter::Parenthesis, args);
    group.set_span(span);
    let mut tokens = respan(&text(callee), span);
    tokens.extend([TokenTree::Group(group)]);
    tokens
}

impl Cx {
    /// `before` Model `after` (a check's call), every token spanned at `span`: one text
    /// when the model's tokens print as source (not a `$crate` path).
    fn check_at(&self, span: Span, before: &str, after: &str) -> TokenStream {
        let tokens = match &self.model_text {
            Some(model) => text(&format!("{before}{model}{after}")),
            None => {
                let mut out = Out::default();
                out.s(before).t(self.model.clone()).s(after);
                out.finish()
            }
        };
        respan(&tokens, span)
    }

    /// The kind type of the values of the current key (`__V{slot}`, an alias of the
    /// class its `key_ops` call returns), marked as read.
    fn class(&mut self) -> String {
        self.used[self.slot] = true;
        format!("__V{}", self.slot)
    }

    /// One value compared with `path`: checked by the trait, spanned at the value.
    fn value(&mut self, scope: &Scope, path: &str, value: &[TokenTree]) -> TokenStream {
        let span = first_span(value);
        if is_null(value) {
            return bson_null();
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
        let kind = self.class();
        call_at(span, &format!("__query_rt::value::<{kind}, _>"), value.iter().cloned().collect())
    }

    /// Records `value` compared with `path` by `op` when it is an integer, string or
    /// boolean literal of the query's top level.
    fn literal(&mut self, scope: &Scope, path: &str, op: &str, value: &[TokenTree]) {
        if self.depth > 0 || !matches!(scope, Scope::Root) {
            return;
        }
        let int = |lit: &proc_macro2::Literal| match syn::Lit::new(lit.clone()) {
            syn::Lit::Int(n) => n.base10_parse::<i64>().ok(),
            _ => None,
        };
        let value = match value {
            [TokenTree::Literal(lit)] => match syn::Lit::new(lit.clone()) {
                syn::Lit::Str(text) => format!("Str({:?})", text.value()),
                syn::Lit::Int(_) => match int(lit) {
                    Some(n) => format!("Int({n}i64)"),
                    None => return,
                },
                _ => return,
            },
            [TokenTree::Punct(minus), TokenTree::Literal(lit)] if minus.as_char() == '-' => match int(lit) {
                Some(n) => format!("Int({}i64)", -n),
                None => return,
            },
            [TokenTree::Ident(b)] if b == "true" || b == "false" => format!("Bool({b})"),
            _ => return,
        };
        self.top_literals.push(format!(
            "__query_rt::QueryLiteral{{path:{path:?},op:{op:?},value:__query_rt::QueryLiteralValue::{value}}}"
        ));
    }

    fn fixed(&self, kind: &str, value: &[TokenTree]) -> TokenStream {
        let callee = format!("__query_rt::value::<__query_rt::kinds::{kind}, _>");
        call_at(first_span(value), &callee, value.iter().cloned().collect())
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
fn document(inserts: Vec<(String, TokenStream)>) -> TokenStream {
    let mut out = Out::default();
    out.open(Delimiter::Brace).s("let mut __d = __query_rt::Document::new();");
    for (key, value) in inserts {
        out.s("__d.insert").open(Delimiter::Parenthesis).s(&format!("{key:?},")).t(value).close().s(";");
    }
    out.s("__d").close();
    out.finish()
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
                inserts.push((key.clone(), bson_array(docs.into_iter().map(bson_document))));
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
                cx.checks.push(cx.check_at(span, "__query_rt::query_check::text::<", ">()"));
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
                cx.facts.push(None);
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
                cx.slots[slot] = match scope {
                    Scope::Root => match key_words(&key) {
                        Some((one, words)) => {
                            cx.facts[slot] = cx.model_text.as_ref().map(|model| {
                                format!("__query_rt::query_check::Key{one}::<{model}{words}>::FACTS.class")
                            });
                            cx.check_at(
                                span,
                                &format!("__query_rt::query_check::key_ops_at{one}::<"),
                                &format!("{words}>({key:?}, {names:?}, {bits}u32)"),
                            )
                        }
                        None => {
                            cx.check_at(span, "__query_rt::query_check::key_ops::<", &format!(">({key:?}, {names:?})"))
                        }
                    },
                    Scope::Items(array) => cx.check_at(
                        span,
                        "__query_rt::query_check::elem_key_ops::<",
                        &format!(">({array:?}, {key:?}, {names:?})"),
                    ),
                };
                nodes.extend(ops.into_iter().map(|op| Node::Pred { path: key.clone(), op }));
                inserts.push((key, bson));
            }
        }
    }
    Ok((nodes, document(inserts)))
}

/// The const generic arguments `, A, B` naming `key` (its bytes as two words) for the
/// checks that read `Key::<Model, A, B>::FACTS`, the key's facts evaluated once per crate
/// for each model and key; `None` for a key too long.
fn key_words(key: &str) -> Option<(&'static str, String)> {
    match q::key_words(key)? {
        // a key of at most 16 bytes: one word, one const argument fewer (`Key1`)
        (lo, 0) => Some(("1", format!(", {lo}"))),
        (lo, hi) => Some(("", format!(", {lo}, {hi}"))),
    }
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
    if is_null(value) {
        return Ok((vec![Op::EqNull], bson_null()));
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
        let doc = document(inserts);
        return Ok((ops, bson_document(doc)));
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
    let mut ops = Vec::new();
    let mut inserts = Vec::new();
    let options = items.iter().find(|(k, ..)| k == "$options").map(|(_, _, v)| v.clone());
    for (op, op_span, value) in items {
        let (op_kind, bson) = match op.as_str() {
            "$eq" if is_null(value) => (Op::EqNull, bson_null()),
            "$eq" => {
                cx.literal(scope, path, "$eq", value);
                (Op::Eq, cx.value(scope, path, value))
            }
            "$ne" if is_null(value) => (Op::Ne, bson_null()),
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
                            .map(|v| if is_null(v) { bson_null() } else { cx.value(scope, path, v) })
                            .collect();
                        (Some(parts.len() as u32), null, bson_array(values))
                    }
                    None => {
                        let callee = format!("__query_rt::values::<{}, _>", cx.class());
                        (None, false, call_at(first_span(value), &callee, value.iter().cloned().collect()))
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
                Some(b) => (Op::Exists(b), text(&format!("__query_rt::Bson::Boolean({b})"))),
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
                    (Op::Mod, bson_array([d, r]))
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
                    let doc = document(inner_inserts);
                    (Op::ElemMatchValue(inner_ops), bson_document(doc))
                } else {
                    let items_scope = match scope {
                        Scope::Root => Scope::Items(path.to_owned()),
                        Scope::Items(outer) => Scope::Items(format!("{outer}.{path}")),
                    };
                    let (nodes, doc) = filter(cx, &items_scope, group)?;
                    (Op::ElemMatch(nodes), bson_document(doc))
                }
            }
            "$not" => {
                if let Some(group) = brace(value) {
                    let inner = entries(group)?;
                    if inner.is_empty() || !inner.iter().all(|(k, ..)| k.starts_with('$')) {
                        return Err(syn::Error::new(*op_span, "`$not` takes operators (`{ \"$gt\": 5 }`) or a regex"));
                    }
                    let (inner_ops, inner_inserts) = operators_of(cx, scope, path, &inner)?;
                    let doc = document(inner_inserts);
                    let first = inner_ops.into_iter().next().unwrap_or(Op::Eq);
                    (Op::Not(Box::new(first)), bson_document(doc))
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

/// `op` as `query::Op` source text.
fn render_op(out: &mut String, op: &Op) {
    use std::fmt::Write;
    let name = match op {
        Op::Eq => "Eq",
        Op::EqNull => "EqNull",
        Op::Ne => "Ne",
        Op::Gt => "Gt",
        Op::Gte => "Gte",
        Op::Lt => "Lt",
        Op::Lte => "Lte",
        Op::Nin => "Nin",
        Op::Type => "Type",
        Op::Size => "Size",
        Op::All => "All",
        Op::Mod => "Mod",
        Op::Near => "Near",
        Op::GeoWithin => "GeoWithin",
        Op::In { len, null } => {
            let _ = match len {
                Some(n) => write!(out, "__query_rt::Op::In{{len: ::core::option::Option::Some({n}u32),null:{null}}}"),
                None => write!(out, "__query_rt::Op::In{{len: ::core::option::Option::None,null:{null}}}"),
            };
            return;
        }
        Op::Exists(b) => {
            let _ = write!(out, "__query_rt::Op::Exists({b})");
            return;
        }
        Op::Regex { prefix } => {
            let _ = write!(out, "__query_rt::Op::Regex{{prefix:{prefix}}}");
            return;
        }
        Op::ElemMatch(nodes) => {
            out.push_str("__query_rt::Op::ElemMatch(");
            render_nodes(out, nodes);
            out.push(')');
            return;
        }
        Op::ElemMatchValue(ops) => {
            out.push_str("__query_rt::Op::ElemMatchValue(&[");
            for op in ops {
                render_op(out, op);
                out.push(',');
            }
            out.push_str("])");
            return;
        }
        Op::Not(inner) => {
            out.push_str("__query_rt::Op::Not(&");
            render_op(out, inner);
            out.push(')');
            return;
        }
    };
    out.push_str("__query_rt::Op::");
    out.push_str(name);
}

/// `&[node, ..]` as source text.
fn render_nodes(out: &mut String, nodes: &[Node]) {
    out.push_str("&[");
    for node in nodes {
        render_node(out, node);
        out.push(',');
    }
    out.push(']');
}

/// `node` as `query::Filter` source text.
fn render_node(out: &mut String, node: &Node) {
    use std::fmt::Write;
    let (variant, list) = match node {
        Node::Pred { path, op } => {
            let _ = write!(out, "__query_rt::Filter::Pred(__query_rt::Pred{{path:{path:?},op:");
            render_op(out, op);
            out.push_str("})");
            return;
        }
        Node::Text => {
            out.push_str("__query_rt::Filter::Text");
            return;
        }
        Node::Opaque(name) => {
            let _ = write!(out, "__query_rt::Filter::Opaque({name:?})");
            return;
        }
        Node::And(list) => ("And", list),
        Node::Or(list) => ("Or", list),
        Node::Nor(list) => ("Nor", list),
    };
    let _ = write!(out, "__query_rt::Filter::{variant}(&[");
    for branch in list {
        render_nodes(out, branch);
        out.push(',');
    }
    out.push_str("])");
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
    let mut cx = Cx {
        bson: quote!(#krate::bson),
        model: model_tokens.clone(),
        model_text: Some(model_tokens.to_string()).filter(|m| !m.contains('$')),
        checks: Vec::new(),
        slots: Vec::new(),
        facts: Vec::new(),
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
                    cx.checks.push(match key_words(&k) {
                        Some((one, words)) => {
                            cx.check_at(kspan, &format!("__query_rt::query_check::sort_at{one}::<"), &format!("{words}>({k:?})"))
                        }
                        None => cx.check_at(kspan, "__query_rt::query_check::sort::<", &format!(">({k:?})")),
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
                        cx.checks.push(match key_words(&k) {
                            Some((one, words)) => cx.check_at(
                                kspan,
                                &format!("__query_rt::query_check::projection_at{one}::<"),
                                &format!("{words}>({k:?})"),
                            ),
                            None => cx.check_at(kspan, "__query_rt::query_check::projection::<", &format!(">({k:?})")),
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

    let model = cx.model.clone();
    let written: String = model_tokens.to_string().chars().filter(|c| !c.is_whitespace()).collect();
    // an empty slice is a constant of the runtime's, not `&[]`: in a static each borrowed
    // array is a promoted constant of its own to build, check and evaluate
    let slice = |shape: &mut String, field: &str, items: Vec<String>, empty: &str| {
        if items.is_empty() {
            shape.push_str(&format!("{field}:__query_rt::{empty},"));
        } else {
            shape.push_str(&format!("{field}:&[{}],", items.join(",")));
        }
    };
    let mut shape = String::new();
    if nodes.is_empty() {
        shape.push_str("filter:__query_rt::NO_FILTER,");
    } else {
        shape.push_str("filter:");
        render_nodes(&mut shape, &nodes);
        shape.push(',');
    }
    let sort_items = sort.iter().map(|(key, ascending)| {
        let direction = if *ascending { "Ascending" } else { "Descending" };
        format!("({key:?},__query_rt::Direction::{direction})")
    });
    slice(&mut shape, "sort", sort_items.collect(), "NO_SORT");
    let typed = match &typed_projection {
        Some(ty) => {
            let span = ty.clone().into_iter().next().map_or_else(Span::call_site, |t| t.span());
            let mut check = Out::default();
            check.s("__query_rt::query_check::typed_projection::<").t(cx.model.clone()).s(",").t(ty.clone()).s(">()");
            cx.checks.push(respan(&check.finish(), span));
            shape.push_str("projection:&__PROJECTION,");
            let mut consts = Out::default();
            consts.s("const __PROJECTION_LEN: usize = __query_rt::query_check::projection_len::<").t(ty.clone());
            consts.s(">(); static __PROJECTION: [(&str, bool); __PROJECTION_LEN] = __query_rt::query_check::projection_keys::<");
            consts.t(ty.clone()).s(", __PROJECTION_LEN>();");
            consts.finish()
        }
        None => {
            let items = projection.iter().map(|(key, included)| format!("({key:?},{included})"));
            slice(&mut shape, "projection", items.collect(), "NO_PROJECTION");
            TokenStream::new()
        }
    };
    let option = |v: Option<String>, none: &str| match v {
        Some(v) => format!("::core::option::Option::Some({v})"),
        None => format!("__query_rt::{none}"),
    };
    shape.push_str(&format!(
        "limit: {},skip: {},name: {},",
        option(limit.map(|n| format!("{n}u64")), "NO_COUNT"),
        option(skip.map(|n| format!("{n}u64")), "NO_COUNT"),
        option(name.map(|n| format!("{n:?}")), "NO_NAME"),
    ));
    let allow_items = allow.iter().map(|(rule, reason)| format!("({rule:?},{reason:?})"));
    slice(&mut shape, "allow", allow_items.collect(), "NO_ALLOW");
    slice(&mut shape, "literals", std::mem::take(&mut cx.top_literals), "NO_LITERALS");
    shape.push_str("module: ::core::module_path!(),file: ::core::file!(),line: ::core::line!()");
    let count = cx.slots.len();
    let driver = match crate::policy::driver() {
        Some(driver) => format!("(::{driver}::options::FindOptions,::{driver}::options::CountOptions)"),
        None => "()".to_owned(),
    };

    let mut out = Out::default();
    // the expansion's one name for the runtime: `$crate` cannot take another span, and a
    // check's tokens must all be spanned at its key
    out.open(Delimiter::Brace).s("use ").t(krate).s("::__private as __query_rt;").t(typed);
    // the query's one static: its shape, and its registration for `schema queries`, an
    // element of `linkme`'s slice. On ELF targets the section is named here (what linkme's
    // element macro writes, without its `macro_rules` passes over the whole item);
    // elsewhere a copy goes through the slice's section macro (cfg-stripped here).
    out.s(&format!("#[cfg_attr({ELF},used,unsafe(link_section={SECTION:?}))]"));
    out.s("static __QUERY:__query_rt::RegisteredQuery=__query_rt::RegisteredQuery").open(Delimiter::Brace);
    out.s(&format!("rust_type:{written:?},model:__query_rt::Registration::of::<")).t(model.clone());
    out.s(">,shape:__query_rt::QueryShape").open(Delimiter::Brace).s(&shape).close().close().s(";");
    out.s(&format!(
        "#[cfg(not({ELF}))] __query_rt::MONGO_SCHEMA_QUERIES!{{#![linkme_macro=__query_rt::MONGO_SCHEMA_QUERIES] static __QUERY_ELEMENT:__query_rt::RegisteredQuery=__QUERY;}}"
    ));
    // The checks, then the planner, in one constant: a query whose key, operator or
    // literal is wrong fails before it is planned (its error is the only one shown). The
    // values' aliases read each key's class from its memoized facts, not from `__K`, so a
    // value of a wrong type keeps its error (E0277) whatever the planner says, and `__K` is
    // evaluated once (a type's constant is evaluated apart from the crate's constants).
    // Generic over the model: the planner reads the model's index facts from
    // `Planned::<Model>::FACTS`, evaluated once per model and crate, not per query.
    // `__K` holds the classes only when an alias reads them there (a key without memoized
    // facts): an array type's length is one more constant to evaluate
    let keep = cx.used.iter().zip(&cx.facts).any(|(used, facts)| *used && facts.is_none());
    let ty = if keep { format!("[u8;{count}usize]") } else { "()".to_owned() };
    out.s(&format!("const __K:{ty}=")).open(Delimiter::Brace);
    for check in std::mem::take(&mut cx.checks) {
        out.t(check).s(";");
    }
    if count > 0 {
        out.s("let __k=").open(Delimiter::Bracket);
        for slot in std::mem::take(&mut cx.slots) {
            out.t(slot).s(",");
        }
        out.close().s(";");
    }
    // the waived rules as bits (`1 <<` the rule's position in the contract's list, as the
    // planner's `Rule`): the planner skips the plan when every rule that may apply is waived
    let waived = allow
        .iter()
        .filter_map(|(rule, _)| mongo_schema_contract::rules::QUERY_RULES.iter().position(|r| r == rule))
        .fold(0u8, |bits, at| bits | 1 << at);
    out.s("__query_rt::query_enforce_on_waiving::<").t(model);
    out.s(&format!(">(&__QUERY.shape,{written:?},{waived}u8);"));
    out.s(if keep { "__k" } else { "" }).close().s(";");
    for (i, _) in cx.used.iter().enumerate().filter(|(_, used)| **used) {
        let class = cx.facts[i].take().unwrap_or_else(|| format!("__K[{i}usize]"));
        out.s(&format!("type __V{i}=<__query_rt::Class<{{{class}}}> as __query_rt::Kind>::Is;"));
    }
    out.s(&format!("__query_rt::Query::<{driver}>::__new")).open(Delimiter::Parenthesis);
    out.s("&__QUERY.shape,").t(filter_doc).close().close();
    Ok(out.finish())
}

/// The targets whose linker gathers a section by its name (`__start_`/`__stop_` symbols),
/// as `linkme` lists them, and the section its slice `MONGO_SCHEMA_QUERIES` reads there.
const ELF: &str = r#"any(target_os="none",target_os="linux",target_os="android",target_os="fuchsia",target_os="psp")"#;
const SECTION: &str = "linkme_MONGO_SCHEMA_QUERIES";

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
