//! A small JSON reader for the keys whose value is JSON text (`partial`), and for the typed
//! form the grammar suggests for a JSON object written where typed fields go. Below the
//! parsers: both `options` and `grammar` read it.

/// A JSON value, as the partial filter's checks read it (numbers as written).
#[derive(Debug, Clone, PartialEq)]
pub enum JsonValue {
    Object(Vec<(String, JsonValue)>),
    Array(Vec<JsonValue>),
    String(String),
    Number(f64),
    Bool(bool),
    Null,
}

/// `text` as a JSON value, or the byte offset where it stops being JSON.
pub fn parse_json(text: &str) -> Result<JsonValue, usize> {
    let mut parser = Json { bytes: text.as_bytes(), at: 0, depth: 0 };
    let value = parser.value()?;
    parser.end()?;
    Ok(value)
}

/// A small JSON parser: enough to catch a typo in a filter at compile time and to read its
/// operators. Nesting is limited so that no input can exhaust the stack.
struct Json<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

impl Json<'_> {
    fn ws(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Result<(), usize> {
        self.ws();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.at)
        }
    }

    fn end(&mut self) -> Result<(), usize> {
        self.ws();
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.at)
        }
    }

    fn value(&mut self) -> Result<JsonValue, usize> {
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(JsonValue::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.word(),
        }
    }

    fn deeper(&mut self) -> Result<(), usize> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(self.at);
        }
        Ok(())
    }

    fn object(&mut self) -> Result<JsonValue, usize> {
        self.deeper()?;
        self.eat(b'{')?;
        let mut members = Vec::new();
        if self.eat(b'}').is_err() {
            loop {
                self.ws();
                let key = self.string()?;
                self.eat(b':')?;
                members.push((key, self.value()?));
                if self.eat(b',').is_err() {
                    self.eat(b'}')?;
                    break;
                }
            }
        }
        self.depth -= 1;
        Ok(JsonValue::Object(members))
    }

    fn array(&mut self) -> Result<JsonValue, usize> {
        self.deeper()?;
        self.eat(b'[')?;
        let mut items = Vec::new();
        if self.eat(b']').is_err() {
            loop {
                items.push(self.value()?);
                if self.eat(b',').is_err() {
                    self.eat(b']')?;
                    break;
                }
            }
        }
        self.depth -= 1;
        Ok(JsonValue::Array(items))
    }

    fn string(&mut self) -> Result<String, usize> {
        self.eat(b'"')?;
        let start = self.at;
        let mut out = Vec::new();
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'"' => return String::from_utf8(out).map_err(|_| start),
                b'\\' => {
                    let escaped = self.bytes.get(self.at).copied().ok_or(self.at)?;
                    self.at += 1;
                    match escaped {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.bytes.get(self.at..self.at + 4).ok_or(self.at)?;
                            let code = std::str::from_utf8(hex).ok().and_then(|h| u32::from_str_radix(h, 16).ok());
                            let ch = code.and_then(char::from_u32).unwrap_or('\u{fffd}');
                            out.extend(ch.to_string().bytes());
                            self.at += 4;
                        }
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
        Err(self.at)
    }

    fn number(&mut self) -> Result<JsonValue, usize> {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|b| b"+-.eE0123456789".contains(b)) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| start)?;
        text.parse::<f64>().map(JsonValue::Number).map_err(|_| start)
    }

    fn word(&mut self) -> Result<JsonValue, usize> {
        for (word, value) in
            [(&b"true"[..], JsonValue::Bool(true)), (b"false", JsonValue::Bool(false)), (b"null", JsonValue::Null)]
        {
            if self.bytes.get(self.at..).unwrap_or_default().starts_with(word) {
                self.at += word.len();
                return Ok(value);
            }
        }
        Err(self.at)
    }
}
