//! Tag names as small integers: the HTML elements the scanners reason
//! about have fixed ids (`tag::DIV`, ...), any other name is interned per
//! document, so that the raw-HTML passes (the parse pre-pass here, the
//! body extractor's tokenizer) compare and stack `u16`s instead of
//! allocating a `String` per tag.
//!
//! Invariants:
//! - Names are ASCII-lowercased before lookup: `DIV`, `Div` and `div` get
//!   one id; equal names always get equal ids within one [`Interner`].
//! - Id 0 is [`TEXT`] (no tag name starts with `#`); known ids follow in
//!   table order; unknown names count up from `tag::FIRST_UNKNOWN`.
//! - Past `u16` every further unknown name shares [`OVERFLOW`]: such a
//!   page is absurd, and callers that need identity treat that id as
//!   "matches nothing".
//! - Lookup allocates nothing for known names or names seen before.

use std::collections::HashMap;

/// Interned lowercase tag name (per document; known tags have fixed ids).
pub type TagId = u16;

/// Id of text tokens and nodes (not a tag).
pub const TEXT: TagId = 0;

/// The id every unknown name past the `u16` range shares.
pub const OVERFLOW: TagId = TagId::MAX - 1;

/// Names longer than this are never known tags and are lower-cased on the
/// heap (the longest known name, `blockquote`/`figcaption`, has 10 bytes).
const SHORT_NAME: usize = 32;

macro_rules! known_tags {
    ($($id:ident = $name:literal),* $(,)?) => {
        /// Ids of the tags the algorithms name.
        #[allow(dead_code)]
        pub mod tag {
            use super::TagId;
            /// Table order: ids without counting by hand.
            #[allow(clippy::upper_case_acronyms)]
            #[repr(u16)]
            enum Known { Text, $($id),* }
            $(pub const $id: TagId = Known::$id as TagId;)*
            /// The first id interned for a name not in the table.
            pub const FIRST_UNKNOWN: TagId = super::KNOWN_NAMES.len() as TagId;
        }
        /// Names by id (`#text` first).
        const KNOWN_NAMES: &[&str] = &["#text", $(
            match std::str::from_utf8($name) {
                Ok(s) => s,
                Err(_) => panic!("tag names are ASCII"),
            }
        ),*];
        /// The fixed id of a lowercase name, if it is a known tag.
        fn known_tag(name: &[u8]) -> Option<TagId> {
            match name {
                $( $name => Some(tag::$id), )*
                _ => None,
            }
        }
    };
}

known_tags! {
    P = b"p", A = b"a", DIV = b"div", SPAN = b"span", LI = b"li", BR = b"br", IMG = b"img",
    TD = b"td", TR = b"tr", TH = b"th", UL = b"ul", OL = b"ol", TABLE = b"table",
    TBODY = b"tbody", THEAD = b"thead", TFOOT = b"tfoot", OPTION = b"option",
    OPTGROUP = b"optgroup", SELECT = b"select", DT = b"dt", DD = b"dd", DL = b"dl",
    H1 = b"h1", H2 = b"h2", H3 = b"h3", H4 = b"h4", H5 = b"h5", H6 = b"h6", HR = b"hr",
    INPUT = b"input", META = b"meta", LINK = b"link", AREA = b"area", BASE = b"base",
    COL = b"col", EMBED = b"embed", PARAM = b"param", SOURCE = b"source", TRACK = b"track",
    WBR = b"wbr", HTML = b"html", HEAD = b"head", BODY = b"body", TITLE = b"title",
    SCRIPT = b"script", STYLE = b"style", NOSCRIPT = b"noscript", TEXTAREA = b"textarea",
    IFRAME = b"iframe", NOEMBED = b"noembed", NOFRAMES = b"noframes", XMP = b"xmp",
    ADDRESS = b"address", ARTICLE = b"article", ASIDE = b"aside", BLOCKQUOTE = b"blockquote",
    DETAILS = b"details", DIALOG = b"dialog", FIELDSET = b"fieldset",
    FIGCAPTION = b"figcaption", FIGURE = b"figure", FOOTER = b"footer", FORM = b"form",
    HEADER = b"header", HGROUP = b"hgroup", MAIN = b"main", MENU = b"menu", NAV = b"nav",
    PRE = b"pre", SECTION = b"section", SUMMARY = b"summary", CODE = b"code", B = b"b",
    I = b"i", EM = b"em", STRONG = b"strong", SMALL = b"small", SUB = b"sub", SUP = b"sup",
    TIME = b"time", BUTTON = b"button", LABEL = b"label", SVG = b"svg", MATH = b"math",
    CAPTION = b"caption", COLGROUP = b"colgroup", TEMPLATE = b"template",
    PICTURE = b"picture", VIDEO = b"video", AUDIO = b"audio", CANVAS = b"canvas",
    OBJECT = b"object", U = b"u", S = b"s", Q = b"q", CITE = b"cite", ABBR = b"abbr",
    KBD = b"kbd", SAMP = b"samp", VAR = b"var", MARK = b"mark", DEL = b"del", INS = b"ins",
    FONT = b"font", CENTER = b"center", BIG = b"big", TT = b"tt", STRIKE = b"strike",
    RUBY = b"ruby", RT = b"rt", RP = b"rp", DFN = b"dfn", BDI = b"bdi", BDO = b"bdo",
    DATA = b"data", APPLET = b"applet", MARQUEE = b"marquee", LISTING = b"listing",
    DIR = b"dir", SEARCH = b"search", PLAINTEXT = b"plaintext", NOBR = b"nobr",
    FRAMESET = b"frameset", FRAME = b"frame", BASEFONT = b"basefont", BGSOUND = b"bgsound",
    KEYGEN = b"keygen", IMAGE = b"image",
}

/// Elements that never have content (HTML's void elements, and `image`,
/// which parsers read as `img`).
pub fn is_void(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        AREA | BASE
            | BASEFONT
            | BGSOUND
            | BR
            | COL
            | EMBED
            | FRAME
            | HR
            | IMAGE
            | IMG
            | INPUT
            | KEYGEN
            | LINK
            | META
            | PARAM
            | SOURCE
            | TRACK
            | WBR
    )
}

/// Elements whose content is raw text up to their own end tag (the HTML
/// tokenizer reads no tags inside). `noscript` is raw text because pages
/// are parsed with scripting enabled.
pub fn is_raw_text(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        SCRIPT | STYLE | TEXTAREA | TITLE | XMP | IFRAME | NOEMBED | NOFRAMES | NOSCRIPT
    )
}

/// The heading elements `h1`–`h6`.
pub fn is_heading(t: TagId) -> bool {
    use tag::*;
    matches!(t, H1 | H2 | H3 | H4 | H5 | H6)
}

/// Start tags that close an open `p` (the spec's "close a p element"
/// list, without `table`, which closes it only outside quirks mode).
pub fn closes_p(t: TagId) -> bool {
    use tag::*;
    is_heading(t)
        || matches!(
            t,
            ADDRESS
                | ARTICLE
                | ASIDE
                | BLOCKQUOTE
                | CENTER
                | DETAILS
                | DIALOG
                | DIR
                | DIV
                | DL
                | FIELDSET
                | FIGCAPTION
                | FIGURE
                | FOOTER
                | FORM
                | HEADER
                | HGROUP
                | HR
                | LI
                | DD
                | DT
                | LISTING
                | MAIN
                | MENU
                | NAV
                | OL
                | P
                | PRE
                | SEARCH
                | SECTION
                | SUMMARY
                | UL
        )
}

/// Tag names of one document: fixed ids for known tags, the rest interned.
#[derive(Debug, Default)]
pub struct Interner {
    /// Names of interned tags beyond the known ones, by `id - FIRST_UNKNOWN`.
    extra_names: Vec<Box<str>>,
    extra_ids: HashMap<Box<[u8]>, TagId>,
}

impl Interner {
    /// Lowercase name of a tag id (`unknown` for ids never handed out).
    pub fn name(&self, id: TagId) -> &str {
        if let Some(n) = KNOWN_NAMES.get(id as usize) {
            return n;
        }
        let i = (id - tag::FIRST_UNKNOWN) as usize;
        self.extra_names.get(i).map_or("unknown", |b| b)
    }

    /// The id of a tag name as written (any case).
    pub fn intern(&mut self, raw: &[u8]) -> TagId {
        if raw.len() <= SHORT_NAME {
            let mut buf = [0u8; SHORT_NAME];
            let lower = &mut buf[..raw.len()];
            lower.copy_from_slice(raw);
            lower.make_ascii_lowercase();
            self.intern_lower(lower)
        } else {
            self.intern_lower(&raw.to_ascii_lowercase())
        }
    }

    fn intern_lower(&mut self, lower: &[u8]) -> TagId {
        if let Some(id) = known_tag(lower) {
            return id;
        }
        if let Some(&id) = self.extra_ids.get(lower) {
            return id;
        }
        let next = tag::FIRST_UNKNOWN as usize + self.extra_names.len();
        let id = TagId::try_from(next).unwrap_or(OVERFLOW).min(OVERFLOW);
        if id != OVERFLOW {
            self.extra_names
                .push(String::from_utf8_lossy(lower).into_owned().into_boxed_str());
            self.extra_ids.insert(lower.into(), id);
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_have_fixed_ids_in_any_case_and_round_trip() {
        let mut names = Interner::default();
        assert_eq!(names.intern(b"DIV"), tag::DIV);
        assert_eq!(names.intern(b"Blockquote"), tag::BLOCKQUOTE);
        assert_eq!(names.intern(b"image"), tag::IMAGE);
        for id in 1..tag::FIRST_UNKNOWN {
            let name = names.name(id).to_string();
            assert_eq!(names.intern(name.as_bytes()), id, "{name}");
        }
    }

    #[test]
    fn unknown_names_are_interned_once_and_keep_their_name() {
        let mut names = Interner::default();
        let card = names.intern(b"My-Card");
        assert_eq!(card, tag::FIRST_UNKNOWN);
        assert_eq!(names.intern(b"my-card"), card);
        let long = "x".repeat(SHORT_NAME + 5);
        let id = names.intern(long.to_uppercase().as_bytes());
        assert_ne!(id, card);
        assert_eq!(names.intern(long.as_bytes()), id);
        assert_eq!(names.name(card), "my-card");
        assert_eq!(names.name(id), long);
        assert_eq!(names.name(TEXT), "#text");
    }

    #[test]
    fn names_past_the_id_range_share_the_overflow_id() {
        let mut names = Interner::default();
        let total = (OVERFLOW - tag::FIRST_UNKNOWN) as usize + 3;
        let ids: Vec<TagId> = (0..total)
            .map(|i| names.intern(format!("x{i}").as_bytes()))
            .collect();
        assert_eq!(ids[total - 4], OVERFLOW - 1);
        assert!(ids[total - 3..].iter().all(|&id| id == OVERFLOW));
    }
}
