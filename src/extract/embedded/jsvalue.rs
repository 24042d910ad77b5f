//! Reading data values out of JavaScript source without executing it.
//!
//! Three tools, each bounded in bytes and nesting:
//! - [`balanced_end`]: where the object or array literal starting at a
//!   byte ends, skipping strings, template literals and comments.
//! - [`parse_literal`]: a relaxed literal reader (JSON plus what data
//!   literals in scripts use: unquoted and single-quoted keys, single-quoted
//!   strings, trailing commas, `undefined`, `void 0`, `!0`, `!1`, hex
//!   numbers, and identifiers looked up in a table of bindings).
//! - [`parse_assigned`]: the value after `=` in `window.X = …`: a literal,
//!   `JSON.parse("…")`, or the `(function(a,b){return {…}}(1,"x"))` form
//!   that Nuxt 2 emits, whose parameters are bound to its arguments.
//!
//! Invariants: nothing here evaluates code; anything that is not a literal
//! (a call, an operator, a regex) makes the whole value unreadable (`None`)
//! rather than guessed. Work is linear in the input and stops at
//! [`MAX_DEPTH`] nesting or [`MAX_VALUE_BYTES`] bytes.

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

/// Deepest nesting of objects and arrays read.
pub const MAX_DEPTH: usize = 128;
/// Longest value text read (bytes).
pub const MAX_VALUE_BYTES: usize = 8 * 1024 * 1024;

/// One past the byte that closes the `{`/`[` at `start` of `src`, or `None`
/// when it is not closed within [`MAX_VALUE_BYTES`], nests deeper than
/// [`MAX_DEPTH`], or `start` is not an opening bracket.
pub fn balanced_end(src: &str, start: usize) -> Option<usize> {
    let b = src.as_bytes();
    if !matches!(b.get(start), Some(b'{' | b'[' | b'(')) {
        return None;
    }
    let limit = b.len().min(start.saturating_add(MAX_VALUE_BYTES));
    let mut stack: Vec<u8> = Vec::new();
    let mut i = start;
    while i < limit {
        match b[i] {
            open @ (b'{' | b'[' | b'(') => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(match open {
                    b'{' => b'}',
                    b'[' => b']',
                    _ => b')',
                });
            }
            close @ (b'}' | b']' | b')') => {
                if stack.pop() != Some(close) {
                    return None;
                }
                if stack.is_empty() {
                    return Some(i + 1);
                }
            }
            q @ (b'"' | b'\'' | b'`') => i = skip_string(b, i, q, limit)?,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..limit]).map(|n| i + n)?;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&b[i + 2..limit], b"*/").map(|n| i + 2 + n + 1)?;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Index of the closing quote of the string opened at `open`.
fn skip_string(b: &[u8], open: usize, quote: u8, limit: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < limit {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return Some(i),
            // Plain strings cannot span lines; a stray quote is not a string.
            b'\n' if quote != b'`' => return None,
            _ => i += 1,
        }
    }
    None
}

/// Reads a literal value from `src` (the whole text, surrounding blanks
/// and one trailing `;` allowed). `bindings` resolves bare identifiers.
pub fn parse_literal(src: &str, bindings: &HashMap<String, Value>) -> Option<Value> {
    let mut p = Parser::new(src, bindings);
    let v = p.value(0)?;
    p.blank();
    p.eat(b';');
    p.blank();
    p.at_end().then_some(v)
}

/// Reads the value assigned in `… = <text>` (the text after `=`): JSON
/// first (fast, strict), then the relaxed literal, `JSON.parse("…")` and
/// the function-call form. `None` when it is none of these.
pub fn parse_assigned(text: &str) -> Option<Value> {
    let t = text.trim_start();
    match t.as_bytes().first()? {
        b'{' | b'[' => {
            let end = balanced_end(t, 0)?;
            let body = &t[..end];
            serde_json::from_str(body)
                .ok()
                .or_else(|| parse_literal(body, &HashMap::new()))
        }
        _ if t.starts_with("JSON.parse") => json_parse_call(t),
        _ => function_call(t),
    }
}

/// `JSON.parse("…")` or `JSON.parse('…')`: the string, unescaped, as JSON.
fn json_parse_call(t: &str) -> Option<Value> {
    let empty = HashMap::new();
    let mut p = Parser::new(t, &empty);
    p.pos = "JSON.parse".len();
    p.blank();
    if !p.eat(b'(') {
        return None;
    }
    p.blank();
    let text = p.string()?;
    serde_json::from_str(&text).ok()
}

/// `(function(a,b){return BODY}(x,y))`, `(function(a,b){return BODY})(x,y)`
/// and `function(a){return BODY}(x)`: BODY with each parameter bound to
/// its argument (missing arguments are `undefined`, read as null).
fn function_call(t: &str) -> Option<Value> {
    let empty = HashMap::new();
    let mut p = Parser::new(t, &empty);
    let wrapped = p.eat(b'(');
    p.blank();
    if !p.keyword("function") {
        return None;
    }
    p.blank();
    if !p.eat(b'(') {
        return None;
    }
    let params = p.list_until_paren(|p| p.identifier().map(str::to_string))?;
    p.blank();
    let body_start = p.pos;
    let body_end = balanced_end(t, body_start)?;
    // The body must be `{ return VALUE }`.
    let body = t.get(body_start + 1..body_end - 1)?.trim();
    let value_text = body.strip_prefix("return")?;
    p.pos = body_end;
    p.blank();
    if wrapped && p.peek() == Some(b')') {
        // `(function(){…})(args)`
        p.pos += 1;
        p.blank();
    }
    if !p.eat(b'(') {
        return None;
    }
    let args = p.list_until_paren(|p| p.value(0))?;
    let mut bindings: HashMap<String, Value> = HashMap::new();
    let mut args = args.into_iter();
    for name in params {
        bindings.insert(name, args.next().unwrap_or(Value::Null));
    }
    let value_text = value_text.trim().trim_end_matches(';').trim_end();
    parse_literal(value_text, &bindings)
}

/// Recursive-descent reader over bytes (strings are decoded as UTF-8).
struct Parser<'a> {
    src: &'a str,
    pos: usize,
    bindings: &'a HashMap<String, Value>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, bindings: &'a HashMap<String, Value>) -> Self {
        Parser {
            src,
            pos: 0,
            bindings,
        }
    }

    /// Comma-separated `item`s up to and including the closing `)` (the
    /// opening one already eaten): parameter names, call arguments.
    fn list_until_paren<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let mut out = Vec::new();
        loop {
            self.blank();
            if self.eat(b')') {
                return Some(out);
            }
            out.push(item(self)?);
            self.blank();
            if !self.eat(b',') && self.peek() != Some(b')') {
                return None;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Skips whitespace and comments.
    fn blank(&mut self) {
        let b = self.src.as_bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            let rest = &b[self.pos.min(b.len())..];
            if rest.starts_with(b"//") {
                self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            } else if rest.starts_with(b"/*") {
                match memchr::memmem::find(&rest[2..], b"*/") {
                    Some(n) => self.pos += n + 4,
                    None => self.pos = b.len(),
                }
            } else {
                return;
            }
        }
    }

    /// Consumes `word` when it stands alone (not a prefix of an identifier).
    fn keyword(&mut self, word: &str) -> bool {
        let rest = &self.src[self.pos..];
        if rest.starts_with(word)
            && !rest[word.len()..]
                .bytes()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$')
        {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn identifier(&mut self) -> Option<&'a str> {
        let start = self.pos;
        let b = self.src.as_bytes();
        while self.pos < b.len() {
            let c = b[self.pos];
            let ok = c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
            if !ok || (self.pos == start && c.is_ascii_digit()) {
                break;
            }
            self.pos += 1;
        }
        // Stop on a char boundary (non-ASCII identifier characters).
        while !self.src.is_char_boundary(self.pos) {
            self.pos += 1;
        }
        (self.pos > start).then(|| &self.src[start..self.pos])
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.blank();
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' | b'\'' => self.string().map(Value::String),
            b'`' => self.template().map(Value::String),
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(),
            b'!' => {
                // `!0` is true and `!1` false (minifiers' booleans).
                self.pos += 1;
                self.blank();
                let v = self.value(depth + 1)?;
                Some(Value::Bool(!truthy(&v)))
            }
            _ => {
                if self.keyword("true") {
                    return Some(Value::Bool(true));
                }
                if self.keyword("false") {
                    return Some(Value::Bool(false));
                }
                if self.keyword("null") || self.keyword("undefined") {
                    return Some(Value::Null);
                }
                if self.keyword("void") {
                    self.blank();
                    self.value(depth + 1)?;
                    return Some(Value::Null);
                }
                if self.keyword("Infinity") || self.keyword("NaN") {
                    return Some(Value::Null);
                }
                let name = self.identifier()?;
                self.blank();
                // A call or member access is code, not data.
                if matches!(self.peek(), Some(b'(' | b'.' | b'[')) {
                    return None;
                }
                Some(self.bindings.get(name).cloned().unwrap_or(Value::Null))
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.pos += 1;
        let mut map = Map::new();
        loop {
            self.blank();
            if self.eat(b'}') {
                return Some(Value::Object(map));
            }
            let key = match self.peek()? {
                b'"' | b'\'' => self.string()?,
                b'0'..=b'9' => match self.number()? {
                    Value::Number(n) => n.to_string(),
                    _ => return None,
                },
                _ => self.identifier()?.to_string(),
            };
            self.blank();
            let value = if self.eat(b':') {
                self.value(depth + 1)?
            } else if matches!(self.peek(), Some(b',' | b'}')) {
                // Shorthand `{a}` means `{a: a}`.
                self.bindings.get(&key).cloned().unwrap_or(Value::Null)
            } else {
                return None;
            };
            map.insert(key, value);
            self.blank();
            if !self.eat(b',') && self.peek() != Some(b'}') {
                return None;
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.blank();
            if self.eat(b']') {
                return Some(Value::Array(items));
            }
            if self.peek() == Some(b',') {
                // A hole.
                self.pos += 1;
                items.push(Value::Null);
                continue;
            }
            items.push(self.value(depth + 1)?);
            self.blank();
            if !self.eat(b',') && self.peek() != Some(b']') {
                return None;
            }
        }
    }

    /// A `'…'` or `"…"` string with JavaScript escapes.
    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.src[self.pos..];
            let stop = rest
                .bytes()
                .position(|c| c == quote || c == b'\\' || c == b'\n')?;
            out.push_str(&rest[..stop]);
            self.pos += stop;
            match self.peek()? {
                b'\n' => return None,
                b'\\' => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                _ => {
                    self.pos += 1;
                    return Some(out);
                }
            }
        }
    }

    /// A template literal without substitutions.
    fn template(&mut self) -> Option<String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.src[self.pos..];
            let stop = rest
                .bytes()
                .position(|c| c == b'`' || c == b'\\' || c == b'$')?;
            out.push_str(&rest[..stop]);
            self.pos += stop;
            match self.peek()? {
                b'\\' => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                b'$' if self.src[self.pos..].starts_with("${") => return None,
                b'$' => {
                    out.push('$');
                    self.pos += 1;
                }
                _ => {
                    self.pos += 1;
                    return Some(out);
                }
            }
        }
    }

    /// One escape sequence after a backslash.
    fn escape(&mut self, out: &mut String) -> Option<()> {
        let c = self.src[self.pos..].chars().next()?;
        self.pos += c.len_utf8();
        match c {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '0' => out.push('\0'),
            '\n' => {}
            'x' => {
                let hex = self.src.get(self.pos..self.pos + 2)?;
                out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                self.pos += 2;
            }
            'u' => {
                let unit = self.unicode_escape()?;
                // A surrogate pair is two escapes.
                if (0xD800..0xDC00).contains(&unit) && self.src[self.pos..].starts_with("\\u") {
                    self.pos += 2;
                    let low = self.unicode_escape()?;
                    let c = 0x10000 + ((unit - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                } else {
                    out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                }
            }
            other => out.push(other),
        }
        Some(())
    }

    /// The code unit of `XXXX` or `{X…}` after `\u`.
    fn unicode_escape(&mut self) -> Option<u32> {
        if self.eat(b'{') {
            let end = self.src[self.pos..].find('}')?;
            let v = u32::from_str_radix(&self.src[self.pos..self.pos + end], 16).ok()?;
            self.pos += end + 1;
            return Some(v);
        }
        let hex = self.src.get(self.pos..self.pos + 4)?;
        self.pos += 4;
        u32::from_str_radix(hex, 16).ok()
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.pos;
        let b = self.src.as_bytes();
        let negative = self.eat(b'-');
        if !negative {
            self.eat(b'+');
        }
        if self.src[self.pos..].starts_with("0x") || self.src[self.pos..].starts_with("0X") {
            self.pos += 2;
            let digits = self.pos;
            while self.pos < b.len() && b[self.pos].is_ascii_hexdigit() {
                self.pos += 1;
            }
            let v = i64::from_str_radix(&self.src[digits..self.pos], 16).ok()?;
            return Some(Value::from(if negative { -v } else { v }));
        }
        while self.pos < b.len()
            && (b[self.pos].is_ascii_digit() || matches!(b[self.pos], b'.' | b'e' | b'E' | b'_'))
        {
            // An exponent may carry a sign.
            if matches!(b[self.pos], b'e' | b'E')
                && matches!(b.get(self.pos + 1), Some(b'+' | b'-'))
            {
                self.pos += 1;
            }
            self.pos += 1;
        }
        let text: String = self.src[start..self.pos]
            .chars()
            .filter(|&c| c != '_' && c != '+')
            .collect();
        if let Ok(i) = text.parse::<i64>() {
            return Some(Value::from(i));
        }
        let f: f64 = text.parse().ok()?;
        Some(Number::from_f64(f).map_or(Value::Null, Value::Number))
    }
}

/// JavaScript truthiness of a literal.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn balanced_end_skips_strings_comments_and_nesting() {
        let src = r#"{"a": "}", 'b': '\'}', c: `}`, /* } */ d: [1, {e: 2}] // }
        } rest"#;
        let end = balanced_end(src, 0).unwrap();
        assert_eq!(&src[end..], " rest");
        assert_eq!(balanced_end("{\"a\": [1, 2}", 0), None);
        assert_eq!(balanced_end("{ never closed", 0), None);
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(balanced_end(&deep, 0), None);
    }

    #[test]
    fn relaxed_literals_read_like_javascript() {
        let v = parse_assigned(
            r#"{posts: [{title: 'It\'s here', url: "/a", n: 0x10, ok: !0, no: !1, u: void 0, e: 1.5e3,},], 'k': undefined};"#,
        )
        .unwrap();
        assert_eq!(
            v,
            json!({"posts": [{"title": "It's here", "url": "/a", "n": 16, "ok": true, "no": false, "u": null, "e": 1500.0}], "k": null})
        );
        // Code is not data.
        assert_eq!(parse_assigned("{a: f(1)}"), None);
        assert_eq!(parse_assigned("{a: b.c}"), None);
        assert_eq!(parse_assigned("{a: `x${y}`}"), None);
    }

    #[test]
    fn json_parse_calls_and_escapes() {
        let v =
            parse_assigned(r#"JSON.parse("{\"t\":\"caf\u00e9 \\u2014 \ud83d\ude00\"}")"#).unwrap();
        assert_eq!(v, json!({"t": "café — 😀"}));
        let v = parse_assigned(r#"JSON.parse('[1,2]');"#).unwrap();
        assert_eq!(v, json!([1, 2]));
    }

    #[test]
    fn nuxt2_function_form_binds_parameters() {
        let src = r#"(function(a,b,c,d){return {layout:"default",data:[{posts:[{title:a,url:"/p/1",date:b},{title:"Two",url:c,tags:[d]}]}],state:{}}}("One","2024-03-01","\u002Fp\u002F2",void 0));"#;
        let v = parse_assigned(src).unwrap();
        assert_eq!(
            v["data"][0]["posts"],
            json!([{"title": "One", "url": "/p/1", "date": "2024-03-01"}, {"title": "Two", "url": "/p/2", "tags": [null]}])
        );
        let v = parse_assigned(r#"(function(x){return [x, x]})(7)"#).unwrap();
        assert_eq!(v, json!([7, 7]));
    }
}
