//! Element and attribute names in the arena: the parser's interned atoms,
//! moved out of its tree instead of copied into a `String` each. A large
//! page has tens of thousands of elements and attributes, and a string per
//! name was about a sixth of its parse time (the 6,000-record synthetic
//! page of `examples/stage_times.rs`: 38–39 ms against 32–33 ms without
//! those copies).
//!
//! Invariant: a name is lower case (the sink lowers SVG's camelCase names,
//! the only ones html5ever does not). It reads as a `&str`: it derefs to
//! one, compares equal to one, and prints as one.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Deref;

use html5ever::LocalName;

/// A lower-case element or attribute name.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Name(LocalName);

impl Name {
    /// The name the parser gave, lowered when it has upper-case letters.
    pub fn from_parsed(name: LocalName) -> Name {
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            Name(LocalName::from(name.to_ascii_lowercase()))
        } else {
            Name(name)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The atom itself: the selector engine compares names by it (and the
    /// tests' kuchikikiki trees take it, a clone, no new interning).
    pub fn local_name(&self) -> &LocalName {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    /// Lowered like a parsed name.
    fn from(s: &str) -> Name {
        Name::from_parsed(LocalName::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name::from(s.as_str())
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    /// By the text, as the `String` names sorted.
    fn cmp(&self, other: &Name) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_its_lower_case_text() {
        let svg = Name::from_parsed(LocalName::from("foreignObject"));
        assert_eq!(svg, "foreignobject");
        assert_eq!(Name::from("DIV").as_str(), "div");
        assert_eq!(format!("{svg} {svg:?}"), "foreignobject \"foreignobject\"");
        let custom = Name::from("shreddit-post");
        assert_eq!(custom, "shreddit-post");
        assert!("shreddit-post" == custom);
        let mut names: Vec<Name> = ["td", "a", "tr"].into_iter().map(Name::from).collect();
        names.sort();
        assert_eq!(names, ["a", "td", "tr"]);
    }
}
