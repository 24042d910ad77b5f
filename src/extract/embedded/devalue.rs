//! Nuxt 3's `__NUXT_DATA__`: a payload flattened by the `devalue` library.
//!
//! The payload is one JSON array; entry 0 is the root, and inside every
//! object or array, values are *indices* into the payload rather than the
//! values themselves (so shared and cyclic references are written once).
//! An array whose first element is a string is a typed value:
//! `["Date", "2024-…"]`, `["Set", i…]`, `["Map", k, v, …]`, `["BigInt", "…"]`,
//! `["RegExp", src, flags]`, `["null", k, i, …]` (an object without
//! prototype), or a reducer of the application's (`["Reactive", i]`,
//! `["ShallowRef", i]`, …) wrapping the value at `i`. Negative indices are
//! constants (undefined, holes, NaN, ±Infinity, -0).
//!
//! Invariants: every reference is resolved at most [`MAX_NODES`] times in
//! all (shared references are copied, so a payload built to explode when
//! expanded stops there), nesting stops at [`MAX_DEPTH`], and a cycle
//! becomes `null` where it closes. A payload that is not a devalue array
//! gives `None`.

use serde_json::{Map, Value};

/// Values produced at most while expanding one payload.
pub const MAX_NODES: usize = 200_000;
/// Deepest expansion.
pub const MAX_DEPTH: usize = 64;

/// The value `payload` encodes, references resolved.
pub fn unflatten(payload: &Value) -> Option<Value> {
    let values = payload.as_array()?;
    if values.is_empty() {
        return None;
    }
    let mut u = Unflattener {
        values,
        budget: MAX_NODES,
        on_path: vec![false; values.len()],
    };
    u.hydrate_index(0, 0)
}

struct Unflattener<'a> {
    values: &'a [Value],
    budget: usize,
    /// Entries being expanded right now (a reference to one is a cycle).
    on_path: Vec<bool>,
}

impl Unflattener<'_> {
    /// The value at reference `index` (an integer entry of a container).
    fn hydrate_ref(&mut self, index: &Value, depth: usize) -> Option<Value> {
        match index.as_i64() {
            Some(i) if i < 0 => Some(Value::Null),
            Some(i) => self.hydrate_index(usize::try_from(i).ok()?, depth),
            None => None,
        }
    }

    fn hydrate_index(&mut self, i: usize, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || self.budget == 0 {
            return Some(Value::Null);
        }
        self.budget -= 1;
        let entry = self.values.get(i)?;
        if self.on_path.get(i).copied().unwrap_or(false) {
            return Some(Value::Null);
        }
        self.on_path[i] = true;
        let out = self.hydrate_entry(entry, depth);
        self.on_path[i] = false;
        out
    }

    fn hydrate_entry(&mut self, entry: &Value, depth: usize) -> Option<Value> {
        match entry {
            Value::Array(items) => match items.first() {
                Some(Value::String(kind)) => self.typed(kind, &items[1..], depth),
                _ => {
                    let mut out = Vec::with_capacity(items.len().min(4096));
                    for r in items {
                        out.push(self.hydrate_ref(r, depth + 1)?);
                    }
                    Some(Value::Array(out))
                }
            },
            Value::Object(map) => {
                let mut out = Map::new();
                for (k, r) in map {
                    out.insert(k.clone(), self.hydrate_ref(r, depth + 1)?);
                }
                Some(Value::Object(out))
            }
            primitive => Some(primitive.clone()),
        }
    }

    /// `[kind, args…]`.
    fn typed(&mut self, kind: &str, args: &[Value], depth: usize) -> Option<Value> {
        match kind {
            // Literal payloads, not references.
            "Date" | "BigInt" | "RegExp" | "URL" | "URLSearchParams" => {
                Some(args.first().cloned().unwrap_or(Value::Null))
            }
            "Set" => {
                let mut out = Vec::new();
                for r in args {
                    out.push(self.hydrate_ref(r, depth + 1)?);
                }
                Some(Value::Array(out))
            }
            "Map" | "null" => {
                let mut out = Map::new();
                for pair in args.chunks(2) {
                    let key = match (kind, pair.first()) {
                        ("null", Some(Value::String(k))) => k.clone(),
                        (_, Some(r)) => match self.hydrate_ref(r, depth + 1)? {
                            Value::String(s) => s,
                            other => other.to_string(),
                        },
                        _ => continue,
                    };
                    let value = match pair.get(1) {
                        Some(r) => self.hydrate_ref(r, depth + 1)?,
                        None => Value::Null,
                    };
                    out.insert(key, value);
                }
                Some(Value::Object(out))
            }
            "Object" => Some(args.first().cloned().unwrap_or(Value::Null)),
            // An application reducer (Reactive, ShallowRef, NuxtError, …):
            // its payload is the reference that follows.
            _ => match args.first() {
                Some(r) if r.is_i64() => self.hydrate_ref(r, depth + 1),
                _ => Some(Value::Null),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_references_reducers_and_types() {
        // What Nuxt 3 writes for { data: { posts: [ {title, url, date} ×2 ] } }.
        let payload = json!([
            ["ShallowReactive", 1],
            {"data": 2, "state": 9},
            ["ShallowReactive", 3],
            {"posts": 4},
            [5, 7],
            {"title": 6, "url": 11, "date": 12},
            "First post",
            {"title": 8, "url": 13, "date": 12},
            "Second post",
            ["Reactive", 10],
            {},
            "/posts/first",
            ["Date", "2024-03-05T10:00:00.000Z"],
            "/posts/second"
        ]);
        let v = unflatten(&payload).unwrap();
        assert_eq!(
            v["data"]["posts"],
            json!([
                {"title": "First post", "url": "/posts/first", "date": "2024-03-05T10:00:00.000Z"},
                {"title": "Second post", "url": "/posts/second", "date": "2024-03-05T10:00:00.000Z"}
            ])
        );
        assert_eq!(v["state"], json!({}));
    }

    #[test]
    fn cycles_and_explosions_are_bounded() {
        // Entry 1 refers to itself.
        let v = unflatten(&json!([{"a": 1}, {"self": 1, "n": 2}, 5])).unwrap();
        assert_eq!(v, json!({"a": {"self": null, "n": 5}}));
        // Each level doubles: 2^40 nodes if expanded naively.
        let mut payload = vec![json!([1, 1])];
        for i in 1..40 {
            payload.push(json!([i + 1, i + 1]));
        }
        payload.push(json!("leaf"));
        let started = std::time::Instant::now();
        assert!(unflatten(&Value::Array(payload)).is_some());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(unflatten(&json!({"not": "devalue"})), None);
    }
}
