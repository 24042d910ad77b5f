//! Page bytes → text: picks the character encoding of a fetched body and
//! decodes it. Pure (no I/O), so every rule is testable on byte literals.
//!
//! The encoding is chosen by the first rule that yields one, in this order:
//! 1. a byte-order mark (UTF-8, UTF-16LE/BE);
//! 2. the `charset` parameter of the HTTP `Content-Type`;
//! 3. a prescan of the first [`PRESCAN_BYTES`] bytes for `<meta charset>`,
//!    `<meta http-equiv="Content-Type" content="…charset=…">` (HTML spec
//!    "prescan a byte stream" semantics) or an `<?xml encoding="…"?>` declaration;
//! 4. chardetng, told the URL's top-level domain when known;
//! 5. UTF-8 when the body is pure ASCII (nothing to detect).
//!
//! Invariants:
//! - Never fails because of a label: unknown (or `replacement`) labels are
//!   skipped and listed in [`Decoded::ignored`].
//! - A declaration of UTF-8 that the body contradicts (not valid UTF-8, beyond
//!   a few stray broken sequences) is skipped; so is a single-byte declaration
//!   (e.g. the `ISO-8859-1` that many servers send by default) when the body is
//!   valid UTF-8 with non-ASCII text, because legacy single-byte text almost
//!   never forms valid multi-byte UTF-8 by accident.
//! - Only [`DecodeError::Binary`] and [`DecodeError::Empty`] are errors; any
//!   other body decodes, with malformed sequences replaced by U+FFFD and
//!   [`Decoded::had_errors`] set.

use encoding_rs::Encoding;
use thiserror::Error;

/// How many leading bytes the `<meta>` prescan looks at. The HTML spec says
/// 1024; real pages often put kilobytes of inline script or style before the
/// charset declaration, so this looks further (browsers also do).
pub const PRESCAN_BYTES: usize = 4096;

/// How many leading bytes [`looks_binary`] samples for control characters.
pub const BINARY_SAMPLE_BYTES: usize = 4096;

/// Where the chosen encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetSource {
    /// A byte-order mark at the start of the body.
    Bom,
    /// The `charset` parameter of the HTTP `Content-Type` header.
    Header,
    /// A `<meta>` charset declaration (or XML declaration) in the document.
    Meta,
    /// chardetng's guess from the bytes.
    Detector,
    /// Nothing declared and nothing to detect (pure ASCII): UTF-8.
    Default,
}

/// Why a charset declaration was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoreReason {
    /// encoding_rs does not know the label (e.g. `x-foo`).
    UnknownLabel,
    /// The label names the `replacement` encoding (e.g. `iso-2022-kr`), which
    /// would turn the whole page into one U+FFFD.
    ReplacementEncoding,
    /// Declared UTF-8, but the body is not UTF-8.
    InvalidUtf8,
    /// Declared a single-byte legacy encoding, but the body is valid UTF-8
    /// containing non-ASCII text.
    BodyIsUtf8,
}

/// A charset declaration that was found but not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoredDeclaration {
    /// Where the declaration was found.
    pub source: CharsetSource,
    /// The label as written (trimmed).
    pub label: String,
    /// Why it was skipped.
    pub reason: IgnoreReason,
}

/// A decoded body.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The body as text, BOM removed.
    pub text: String,
    /// The encoding the body was decoded with.
    pub encoding: &'static Encoding,
    /// Which rule chose [`Decoded::encoding`].
    pub source: CharsetSource,
    /// Whether malformed sequences were replaced by U+FFFD.
    pub had_errors: bool,
    /// Declarations found but not used, in the order they were considered.
    pub ignored: Vec<IgnoredDeclaration>,
}

/// Why a body could not be turned into text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The body is an image, archive, PDF or other non-text data.
    #[error("body is binary data ({what}), not a text page")]
    Binary {
        /// What gave it away, e.g. "PNG image" or "content type image/png".
        what: String,
    },
    /// The body is empty or whitespace only.
    #[error("body is empty")]
    Empty,
}

/// Decodes `bytes` to text, choosing the encoding as described in the module
/// docs. `content_type` is the raw HTTP `Content-Type` value; `tld` is the
/// URL's top-level domain (`"cn"`, `"jp"`, `"com"`; any case, a leading host
/// part is tolerated) and only steers the detector.
pub fn decode(
    bytes: &[u8],
    content_type: Option<&str>,
    tld: Option<&str>,
) -> Result<Decoded, DecodeError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(DecodeError::Empty);
    }
    if let Some(what) = binary_content_type(content_type) {
        return Err(DecodeError::Binary { what });
    }

    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        // UTF-16 text is full of NULs, so only the magic numbers apply here.
        if let Some(what) = binary_magic(bytes) {
            return Err(DecodeError::Binary { what: what.into() });
        }
        return finish(&bytes[bom_len..], encoding, CharsetSource::Bom, Vec::new());
    }

    let header_label = content_type.and_then(charset_from_content_type);
    let header_is_utf16 = header_label
        .and_then(|label| Encoding::for_label(label.as_bytes()))
        .is_some_and(|enc| enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE);
    if header_is_utf16 {
        if let Some(what) = binary_magic(bytes) {
            return Err(DecodeError::Binary { what: what.into() });
        }
    } else if let Some(what) = binary_reason(bytes) {
        return Err(DecodeError::Binary { what });
    }

    let mut ignored = Vec::new();
    let utf8 = Utf8Check::of(bytes);

    if let Some(label) = header_label
        && let Some(encoding) = accept_label(label, CharsetSource::Header, &utf8, &mut ignored)
    {
        return finish(bytes, encoding, CharsetSource::Header, ignored);
    }

    for label in prescan_labels(&bytes[..bytes.len().min(PRESCAN_BYTES)]) {
        if let Some(encoding) = accept_label(&label, CharsetSource::Meta, &utf8, &mut ignored) {
            // Per the HTML spec a document cannot declare UTF-16 about itself
            // in ASCII-compatible bytes; x-user-defined means windows-1252.
            let encoding = if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE
            {
                encoding_rs::UTF_8
            } else if encoding == encoding_rs::X_USER_DEFINED {
                encoding_rs::WINDOWS_1252
            } else {
                encoding
            };
            return finish(bytes, encoding, CharsetSource::Meta, ignored);
        }
    }

    if bytes.is_ascii() {
        return finish(bytes, encoding_rs::UTF_8, CharsetSource::Default, ignored);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let tld = tld.and_then(sanitize_tld);
    let encoding = detector.guess(
        tld.as_deref().map(str::as_bytes),
        chardetng::Utf8Detection::Allow,
    );
    finish(bytes, encoding, CharsetSource::Detector, ignored)
}

/// Whether `bytes` are clearly not text: a known binary magic number (PNG,
/// JPEG, GIF, WebP, PDF, ZIP, gzip, …) or a high share of NUL / control bytes
/// in the first [`BINARY_SAMPLE_BYTES`] bytes. A few stray NULs do not count.
pub fn looks_binary(bytes: &[u8]) -> bool {
    binary_reason(bytes).is_some()
}

fn binary_reason(bytes: &[u8]) -> Option<String> {
    if let Some(what) = binary_magic(bytes) {
        return Some(what.into());
    }
    let sample = &bytes[..bytes.len().min(BINARY_SAMPLE_BYTES)];
    if sample.is_empty() {
        return None;
    }
    let nuls = sample.iter().filter(|&&b| b == 0).count();
    // Tab, LF, FF, CR and ESC (ISO-2022-JP) occur in text; the rest do not.
    let controls = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B))
        .count();
    // Thresholds: 5% NULs or 20% control bytes. A text page with a handful of
    // stray NULs stays far below; real binary formats are far above.
    if nuls * 20 > sample.len() || controls * 5 > sample.len() {
        Some(format!(
            "{controls} control bytes ({nuls} NUL) in the first {} bytes",
            sample.len()
        ))
    } else {
        None
    }
}

/// Names the file format when `bytes` start with a binary magic number.
fn binary_magic(bytes: &[u8]) -> Option<&'static str> {
    const MAGICS: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "PNG image"),
        (b"\xFF\xD8\xFF", "JPEG image"),
        (b"GIF87a", "GIF image"),
        (b"GIF89a", "GIF image"),
        (b"%PDF-", "PDF document"),
        (b"PK\x03\x04", "ZIP archive"),
        (b"PK\x05\x06", "ZIP archive"),
        (b"\x1F\x8B", "gzip data"),
        (b"BZh", "bzip2 data"),
        (b"\xFD7zXZ\x00", "xz data"),
        (b"7z\xBC\xAF\x27\x1C", "7-Zip archive"),
        (b"\x28\xB5\x2F\xFD", "zstd data"),
        (b"\x00\x00\x01\x00", "ICO image"),
        (b"\x7FELF", "ELF executable"),
        (b"\x00asm", "WebAssembly module"),
        (b"wOFF", "WOFF font"),
        (b"wOF2", "WOFF2 font"),
        (b"OggS", "Ogg media"),
        (b"ID3", "MP3 audio"),
        (b"\x1A\x45\xDF\xA3", "Matroska/WebM media"),
    ];
    for (magic, what) in MAGICS {
        if bytes.starts_with(magic) {
            // "BZh" and "ID3" are also plausible text openings; require the
            // byte that follows in the real formats.
            let confirmed = match *what {
                "bzip2 data" => bytes.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)),
                "MP3 audio" => bytes.get(3).is_some_and(|&b| b < 0x10),
                _ => true,
            };
            if confirmed {
                return Some(what);
            }
        }
    }
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        return Some("WebP image");
    }
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        return Some("MP4/ISO media");
    }
    None
}

/// A `Content-Type` whose media type cannot be a page, named for the error.
/// Only unambiguous types: servers do mislabel HTML as `text/plain` or
/// `application/octet-stream`, so those are judged by their bytes instead.
fn binary_content_type(content_type: Option<&str>) -> Option<String> {
    let media = content_type?.split(';').next()?.trim().to_ascii_lowercase();
    let binary_family = ["image/", "audio/", "video/", "font/"]
        .iter()
        .any(|prefix| media.starts_with(prefix));
    let binary = (binary_family && media != "image/svg+xml")
        || matches!(
            media.as_str(),
            "application/pdf" | "application/zip" | "application/gzip" | "application/x-gzip"
        );
    binary.then(|| format!("content type {media}"))
}

/// What [`decode`] needs to know about the body's UTF-8 validity, computed once.
struct Utf8Check {
    /// Valid UTF-8 throughout.
    valid: bool,
    /// Contains at least one byte ≥ 0x80.
    non_ascii: bool,
    /// Mostly UTF-8: broken sequences are few next to well-formed multi-byte
    /// characters (a truncated character or a stray Latin-1 byte in a UTF-8 page).
    mostly_valid: bool,
}

impl Utf8Check {
    /// At least this many well-formed non-ASCII characters per broken sequence
    /// for a declared UTF-8 body to keep its declaration.
    const GOOD_PER_BAD: usize = 16;

    fn of(bytes: &[u8]) -> Self {
        let non_ascii = !bytes.is_ascii();
        if std::str::from_utf8(bytes).is_ok() {
            return Utf8Check {
                valid: true,
                non_ascii,
                mostly_valid: true,
            };
        }
        let (mut good, mut bad) = (0usize, 0usize);
        for chunk in bytes.utf8_chunks() {
            good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
            if !chunk.invalid().is_empty() {
                bad += 1;
            }
        }
        Utf8Check {
            valid: false,
            non_ascii,
            mostly_valid: good >= bad * Self::GOOD_PER_BAD,
        }
    }
}

/// Resolves a declared label, or records why it is skipped and returns `None`.
fn accept_label(
    label: &str,
    source: CharsetSource,
    utf8: &Utf8Check,
    ignored: &mut Vec<IgnoredDeclaration>,
) -> Option<&'static Encoding> {
    let mut skip = |reason| {
        ignored.push(IgnoredDeclaration {
            source,
            label: label.to_owned(),
            reason,
        });
        None
    };
    let Some(encoding) = Encoding::for_label(label.as_bytes()) else {
        return skip(IgnoreReason::UnknownLabel);
    };
    if encoding == encoding_rs::REPLACEMENT {
        return skip(IgnoreReason::ReplacementEncoding);
    }
    if encoding == encoding_rs::UTF_8 && !utf8.mostly_valid {
        return skip(IgnoreReason::InvalidUtf8);
    }
    if encoding.is_single_byte() && utf8.valid && utf8.non_ascii {
        return skip(IgnoreReason::BodyIsUtf8);
    }
    Some(encoding)
}

fn finish(
    bytes: &[u8],
    encoding: &'static Encoding,
    source: CharsetSource,
    ignored: Vec<IgnoredDeclaration>,
) -> Result<Decoded, DecodeError> {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    if text.trim().is_empty() {
        return Err(DecodeError::Empty);
    }
    Ok(Decoded {
        text: text.into_owned(),
        encoding,
        source,
        had_errors,
        ignored,
    })
}

/// The label chardetng accepts: the last DNS label, lower-case ASCII, or
/// `None` (chardetng panics on dots, upper case and non-ASCII).
fn sanitize_tld(tld: &str) -> Option<String> {
    let last = tld.trim().trim_end_matches('.').rsplit('.').next()?;
    if last.is_empty() || !last.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return None;
    }
    Some(last.to_ascii_lowercase())
}

/// The `charset` parameter of a `Content-Type` value, unquoted and trimmed.
pub fn charset_from_content_type(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!value.is_empty()).then_some(value)
    })
}

/// All charset labels the HTML prescan finds in `head`, in document order
/// (the first usable one wins; later ones are fallbacks for unknown labels).
fn prescan_labels(head: &[u8]) -> Vec<String> {
    let mut labels = Vec::new();
    if let Some(label) = xml_declaration_encoding(head) {
        labels.push(label);
    }
    let mut pos = 0;
    while pos < head.len() {
        let rest = &head[pos..];
        if rest.starts_with(b"<!--") {
            pos = find(head, pos + 4, b"-->").map_or(head.len(), |end| end + 3);
        } else if starts_with_ignore_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            pos += 5;
            labels.extend(meta_charsets(head, &mut pos));
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // An ordinary tag: skip its name and attributes so that attribute
            // values (e.g. `<a title="<meta charset=x>">`) are not scanned.
            pos += 1;
            while pos < head.len() && !is_space(head[pos]) && head[pos] != b'>' {
                pos += 1;
            }
            while get_attribute(head, &mut pos).is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos = find(head, pos + 2, b">").map_or(head.len(), |end| end + 1);
        } else {
            pos += 1;
        }
    }
    labels
}

/// The charset labels of one `<meta>` (position just after `<meta`), per the
/// spec: `charset` first; `content` counts only with `http-equiv="content-type"`
/// and is returned second, as the fallback for an unknown `charset` label.
fn meta_charsets(head: &[u8], pos: &mut usize) -> Vec<String> {
    let mut seen = Vec::<Vec<u8>>::new();
    let mut got_pragma = false;
    let mut charset: Option<String> = None;
    let mut content_charset: Option<String> = None;
    while let Some((name, value)) = get_attribute(head, pos) {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
            b"content" if content_charset.is_none() => {
                content_charset = charset_from_meta_content(&value);
            }
            b"charset" if charset.is_none() => {
                charset = Some(String::from_utf8_lossy(&value).trim().to_owned());
            }
            _ => {}
        }
        seen.push(name);
    }
    let content_charset = content_charset.filter(|_| got_pragma);
    charset
        .filter(|label| !label.is_empty())
        .into_iter()
        .chain(content_charset)
        .collect()
}

/// The spec's "extracting a character encoding from a meta element" on a
/// `content` value such as `text/html; charset=gbk`.
fn charset_from_meta_content(value: &[u8]) -> Option<String> {
    let mut from = 0;
    loop {
        let at = find_ignore_case(value, from, b"charset")?;
        let mut i = at + 7;
        while i < value.len() && is_space(value[i]) {
            i += 1;
        }
        if value.get(i) != Some(&b'=') {
            from = at + 7;
            continue;
        }
        i += 1;
        while i < value.len() && is_space(value[i]) {
            i += 1;
        }
        let label = match value.get(i) {
            Some(&quote @ (b'"' | b'\'')) => {
                let end = value[i + 1..].iter().position(|&b| b == quote)? + i + 1;
                &value[i + 1..end]
            }
            Some(_) => {
                let end = value[i..]
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .map_or(value.len(), |n| n + i);
                &value[i..end]
            }
            None => return None,
        };
        let label = String::from_utf8_lossy(label).trim().to_owned();
        return (!label.is_empty()).then_some(label);
    }
}

/// `encoding="…"` of an `<?xml …?>` declaration at the very start.
fn xml_declaration_encoding(head: &[u8]) -> Option<String> {
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = find(head, 5, b"?>")?;
    let decl = &head[5..end];
    let at = find(decl, 0, b"encoding")? + 8;
    let rest = decl[at..]
        .trim_ascii_start()
        .strip_prefix(b"=")?
        .trim_ascii_start();
    let quote = *rest.first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let close = rest[1..].iter().position(|&b| b == quote)?;
    Some(
        String::from_utf8_lossy(&rest[1..1 + close])
            .trim()
            .to_owned(),
    )
}

/// The spec's "get an attribute": reads one attribute at `pos`, advancing it;
/// `None` at `>` or end of input. Names are lower-cased; values raw bytes.
fn get_attribute(head: &[u8], pos: &mut usize) -> Option<(Vec<u8>, Vec<u8>)> {
    let n = head.len();
    while *pos < n && (is_space(head[*pos]) || head[*pos] == b'/') {
        *pos += 1;
    }
    if *pos >= n || head[*pos] == b'>' {
        return None;
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Attribute name.
    loop {
        let Some(&b) = head.get(*pos) else {
            return Some((name, value));
        };
        if b == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        }
        if is_space(b) {
            while *pos < n && is_space(head[*pos]) {
                *pos += 1;
            }
            if head.get(*pos) != Some(&b'=') {
                return Some((name, value));
            }
            *pos += 1;
            break;
        }
        if b == b'/' || b == b'>' {
            return Some((name, value));
        }
        name.push(b.to_ascii_lowercase());
        *pos += 1;
    }
    // Attribute value.
    while *pos < n && is_space(head[*pos]) {
        *pos += 1;
    }
    match head.get(*pos) {
        None => Some((name, value)),
        Some(&quote @ (b'"' | b'\'')) => {
            *pos += 1;
            while let Some(&b) = head.get(*pos) {
                *pos += 1;
                if b == quote {
                    break;
                }
                value.push(b.to_ascii_lowercase());
            }
            Some((name, value))
        }
        Some(&b'>') => Some((name, value)),
        Some(_) => {
            while let Some(&b) = head.get(*pos) {
                if is_space(b) || b == b'>' {
                    break;
                }
                value.push(b.to_ascii_lowercase());
                *pos += 1;
            }
            Some((name, value))
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn starts_with_ignore_case(haystack: &[u8], prefix: &[u8]) -> bool {
    haystack.len() >= prefix.len() && haystack[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|i| i + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(charset_meta: &str, body: &str) -> String {
        format!(
            "<!DOCTYPE html>\n<html><head>{charset_meta}<title>News</title></head>\
             <body><ul><li><a href=\"/a/1\">{body}</a></li></ul></body></html>"
        )
    }

    /// Encodes `text` with `encoding`, asserting it is representable.
    fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(
            !unmappable,
            "test text must be representable in {}",
            encoding.name()
        );
        bytes.into_owned()
    }

    const ZH_HANS: &str = "国务院常务会议部署进一步优化营商环境的措施，推动经济持续回升向好。\
                           会议指出，要坚持稳中求进工作总基调，完整准确全面贯彻新发展理念。";
    const ZH_HANT: &str = "行政院會議通過總預算案，將提升國防與社會福利支出，立法院預計下週審查。\
                           經濟部表示，出口訂單連續三個月成長，半導體產業表現亮眼。";
    const JA: &str = "東京都は来年度の予算案を発表しました。子育て支援と防災対策に重点を置き、\
                      新しい住宅政策も盛り込まれています。";
    const KO: &str = "정부는 내년도 예산안을 발표했습니다. 저출산 대책과 지역 균형 발전에 중점을 두고 \
                      새로운 주거 정책도 포함되었습니다.";
    const FR: &str = "Le gouvernement a présenté jeudi son projet de budget : hausse des crédits \
                      pour l'éducation, réforme des retraites, et baisse d'impôts « ciblée » — \
                      une première depuis 2017. Réactions très partagées à l'Assemblée.";

    #[test]
    fn gbk_from_meta_only() {
        let html = page("<meta charset=\"gbk\">", ZH_HANS);
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, Some("text/html"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(ZH_HANS));
        assert!(!d.had_errors);
    }

    #[test]
    fn gb2312_label_means_gbk() {
        let html = page(
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">",
            ZH_HANS,
        );
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, None, Some("cn")).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(ZH_HANS));
    }

    #[test]
    fn big5_from_header() {
        let html = page("", ZH_HANT);
        let bytes = encode(encoding_rs::BIG5, &html);
        let d = decode(&bytes, Some("text/html; charset=Big5"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::BIG5);
        assert_eq!(d.source, CharsetSource::Header);
        assert!(d.text.contains(ZH_HANT));
    }

    #[test]
    fn shift_jis_from_quoted_header_charset() {
        let html = page("", JA);
        let bytes = encode(encoding_rs::SHIFT_JIS, &html);
        let d = decode(&bytes, Some("text/html;charset=\"Shift_JIS\""), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::SHIFT_JIS);
        assert!(d.text.contains(JA));
    }

    #[test]
    fn euc_kr_from_http_equiv_with_single_quotes() {
        let html = page(
            "<META HTTP-EQUIV='content-type' CONTENT='text/html; charset=euc-kr'>",
            KO,
        );
        let bytes = encode(encoding_rs::EUC_KR, &html);
        let d = decode(&bytes, None, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::EUC_KR);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(KO));
    }

    #[test]
    fn windows_1252_from_iso_8859_1_label() {
        let html = format!("<html><head><meta charset=iso-8859-1></head><p>{FR}</p>");
        let bytes = encode(encoding_rs::WINDOWS_1252, &html);
        let d = decode(&bytes, None, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::WINDOWS_1252);
        assert!(d.text.contains(FR));
    }

    #[test]
    fn undeclared_encodings_are_detected() {
        let cases: [(&'static Encoding, &str, Option<&str>); 6] = [
            (encoding_rs::GBK, ZH_HANS, Some("cn")),
            (encoding_rs::GBK, ZH_HANS, None),
            (encoding_rs::BIG5, ZH_HANT, Some("TW")),
            (encoding_rs::SHIFT_JIS, JA, Some("jp")),
            (encoding_rs::EUC_KR, KO, Some("www.example.kr")),
            (encoding_rs::WINDOWS_1252, FR, Some("fr")),
        ];
        for (encoding, text, tld) in cases {
            let bytes = encode(encoding, &page("", text));
            let d = decode(&bytes, Some("text/html"), tld).unwrap();
            assert_eq!(d.encoding, encoding, "tld {tld:?}");
            assert_eq!(d.source, CharsetSource::Detector);
            assert!(
                d.text.contains(text),
                "{} garbled: {}",
                encoding.name(),
                d.text
            );
        }
    }

    #[test]
    fn header_wins_over_meta() {
        // Bytes are EUC-KR; the meta lies (as stale templates do), the header is right.
        let html = page("<meta charset=\"windows-1252\">", KO);
        let bytes = encode(encoding_rs::EUC_KR, &html);
        let d = decode(&bytes, Some("text/html; charset=euc-kr"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::EUC_KR);
        assert_eq!(d.source, CharsetSource::Header);
        assert!(d.text.contains(KO));
    }

    #[test]
    fn bom_wins_over_header_and_meta() {
        let html = page("<meta charset=\"gbk\">", ZH_HANS);
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(html.as_bytes());
        let d = decode(&bytes, Some("text/html; charset=shift_jis"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::UTF_8);
        assert_eq!(d.source, CharsetSource::Bom);
        assert!(d.text.starts_with("<!DOCTYPE"), "BOM must be stripped");
        assert!(d.text.contains(ZH_HANS));
    }

    #[test]
    fn utf16le_bom_is_not_binary() {
        let html = page("", JA);
        let mut bytes = vec![0xFF, 0xFE];
        for unit in html.encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let d = decode(&bytes, None, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::UTF_16LE);
        assert!(d.text.contains(JA));
    }

    #[test]
    fn declared_utf8_that_is_gbk_falls_back_to_detector() {
        let html = page("<meta charset=\"utf-8\">", ZH_HANS);
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, Some("text/html; charset=UTF-8"), Some("cn")).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert_eq!(d.source, CharsetSource::Detector);
        assert!(d.text.contains(ZH_HANS));
        let reasons: Vec<_> = d.ignored.iter().map(|i| (i.source, i.reason)).collect();
        assert_eq!(
            reasons,
            [
                (CharsetSource::Header, IgnoreReason::InvalidUtf8),
                (CharsetSource::Meta, IgnoreReason::InvalidUtf8)
            ]
        );
    }

    #[test]
    fn declared_utf8_header_that_is_gbk_uses_meta() {
        let html = page("<meta charset=\"gbk\">", ZH_HANS);
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, Some("text/html; charset=utf-8"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(ZH_HANS));
    }

    #[test]
    fn utf8_with_one_truncated_character_stays_utf8() {
        // A CMS cut an excerpt mid-character: one broken sequence in a long UTF-8 page.
        let html = page("<meta charset=\"utf-8\">", ZH_HANS);
        let mut bytes = html.as_bytes().to_vec();
        let cut = html.find("</a>").unwrap();
        bytes.insert(cut, 0xE5); // lead byte of a 3-byte character, then ASCII
        let d = decode(&bytes, None, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::UTF_8);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.had_errors);
        assert!(d.text.contains(ZH_HANS));
    }

    #[test]
    fn latin1_header_on_a_utf8_body_is_ignored() {
        let html = format!("<html><head><meta charset=\"utf-8\"></head><p>{FR}</p>");
        let d = decode(html.as_bytes(), Some("text/html; charset=ISO-8859-1"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::UTF_8);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(FR));
        assert_eq!(d.ignored[0].reason, IgnoreReason::BodyIsUtf8);
    }

    #[test]
    fn unknown_labels_are_skipped_and_recorded() {
        let html = page(
            "<meta charset=\"x-foo\"><meta http-equiv=\"content-type\" content=\"text/html; charset=gbk\">",
            ZH_HANS,
        );
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, Some("text/html; charset=klingon"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(ZH_HANS));
        let ignored: Vec<_> = d
            .ignored
            .iter()
            .map(|i| (i.source, i.label.as_str(), i.reason))
            .collect();
        assert_eq!(
            ignored,
            [
                (CharsetSource::Header, "klingon", IgnoreReason::UnknownLabel),
                (CharsetSource::Meta, "x-foo", IgnoreReason::UnknownLabel)
            ]
        );
    }

    #[test]
    fn only_unknown_label_falls_through_to_detector() {
        let html = page("<meta charset=\"x-foo\">", JA);
        let bytes = encode(encoding_rs::SHIFT_JIS, &html);
        let d = decode(&bytes, None, Some("jp")).unwrap();
        assert_eq!(d.encoding, encoding_rs::SHIFT_JIS);
        assert_eq!(d.source, CharsetSource::Detector);
        assert!(d.text.contains(JA));
    }

    #[test]
    fn replacement_label_is_skipped() {
        let html = "<meta charset=\"iso-2022-kr\"><p>plain ascii page</p>";
        let d = decode(html.as_bytes(), None, None).unwrap();
        assert_eq!(d.text, html);
        assert_eq!(d.ignored[0].reason, IgnoreReason::ReplacementEncoding);
    }

    #[test]
    fn meta_inside_comment_or_attribute_is_not_a_declaration() {
        let html = format!(
            "<html><head><!-- <meta charset=\"shift_jis\"> -->\
             <link title='<meta charset=euc-kr>' href=x>\
             <meta charset=\"gbk\"></head><p>{ZH_HANS}</p>"
        );
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, None, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert_eq!(d.source, CharsetSource::Meta);
    }

    #[test]
    fn content_without_http_equiv_is_not_a_declaration() {
        let html = "<meta name=\"description\" content=\"charset=shift_jis\"><p>ascii</p>";
        let d = decode(html.as_bytes(), None, None).unwrap();
        assert_eq!(d.source, CharsetSource::Default);
        assert_eq!(d.encoding, encoding_rs::UTF_8);
    }

    #[test]
    fn meta_beyond_prescan_window_is_not_seen() {
        let filler = format!(
            "<script>{}</script>",
            "var x = 1;\n".repeat(PRESCAN_BYTES / 10)
        );
        let html = format!("<html><head>{filler}<meta charset=\"gbk\"></head><p>{ZH_HANS}</p>");
        let bytes = encode(encoding_rs::GBK, &html);
        let d = decode(&bytes, None, None).unwrap();
        // Found by the detector instead, still correct.
        assert_eq!(d.source, CharsetSource::Detector);
        assert_eq!(d.encoding, encoding_rs::GBK);
    }

    #[test]
    fn xml_declaration_is_honoured() {
        let xml = format!(
            "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss><channel><title>{JA}</title></channel></rss>"
        );
        let bytes = encode(encoding_rs::SHIFT_JIS, &xml);
        let d = decode(&bytes, Some("application/xml"), None).unwrap();
        assert_eq!(d.encoding, encoding_rs::SHIFT_JIS);
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains(JA));
    }

    #[test]
    fn ascii_page_defaults_to_utf8() {
        let d = decode(b"<html><body><p>Hello</p></body></html>", None, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::UTF_8);
        assert_eq!(d.source, CharsetSource::Default);
        assert!(!d.had_errors);
    }

    #[test]
    fn odd_tld_values_do_not_panic() {
        let bytes = encode(encoding_rs::GBK, &page("", ZH_HANS));
        for tld in ["CN", "example.cn.", "", "中国", "a b", "."] {
            let d = decode(&bytes, None, Some(tld)).unwrap();
            assert_eq!(d.encoding, encoding_rs::GBK, "tld {tld:?}");
        }
    }

    #[test]
    fn binary_magic_numbers_are_rejected() {
        let samples: [(&[u8], &str); 6] = [
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "PNG"),
            (b"\xFF\xD8\xFF\xE0\0\x10JFIF", "JPEG"),
            (b"GIF89a\x01\0\x01\0", "GIF"),
            (b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj", "PDF"),
            (b"PK\x03\x04\x14\0\0\0\x08\0", "ZIP"),
            (b"\x1F\x8B\x08\0\0\0\0\0\0\x03", "gzip"),
        ];
        for (bytes, name) in samples {
            assert!(looks_binary(bytes), "{name}");
            match decode(bytes, Some("text/html"), None) {
                Err(DecodeError::Binary { what }) => assert!(what.contains(name), "{what}"),
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn control_heavy_body_is_binary_but_stray_nuls_are_not() {
        let mut blob = Vec::new();
        for i in 0..2000u32 {
            blob.extend_from_slice(&i.to_le_bytes());
        }
        assert!(looks_binary(&blob));
        assert!(matches!(
            decode(&blob, None, None),
            Err(DecodeError::Binary { .. })
        ));

        let mut html = page("<meta charset=\"utf-8\">", ZH_HANS).into_bytes();
        html.insert(10, 0);
        html.insert(40, 0);
        html.push(0);
        assert!(!looks_binary(&html));
        let d = decode(&html, None, None).unwrap();
        assert!(d.text.contains(ZH_HANS));
    }

    #[test]
    fn text_starting_like_a_magic_number_is_text() {
        assert!(!looks_binary(b"BZhello there, this is a normal sentence."));
        assert!(!looks_binary(b"ID3 tags explained: a guide for beginners"));
    }

    #[test]
    fn binary_content_type_is_rejected_but_svg_is_not() {
        assert!(matches!(
            decode(b"not really an image", Some("image/jpeg"), None),
            Err(DecodeError::Binary { .. })
        ));
        assert!(
            decode(
                b"<svg xmlns='http://www.w3.org/2000/svg'/>",
                Some("image/svg+xml"),
                None
            )
            .is_ok()
        );
    }

    #[test]
    fn empty_and_whitespace_bodies_are_empty() {
        assert_eq!(decode(b"", None, None).unwrap_err(), DecodeError::Empty);
        assert_eq!(
            decode(b" \r\n\t ", None, None).unwrap_err(),
            DecodeError::Empty
        );
        assert_eq!(
            decode(b"\xEF\xBB\xBF\n", None, None).unwrap_err(),
            DecodeError::Empty
        );
    }

    #[test]
    fn charset_parameter_parsing() {
        assert_eq!(
            charset_from_content_type("text/html; charset=GBK"),
            Some("GBK")
        );
        assert_eq!(
            charset_from_content_type("text/html;CHARSET = 'utf-8' ; q=1"),
            Some("utf-8")
        );
        assert_eq!(charset_from_content_type("text/html"), None);
        assert_eq!(charset_from_content_type("text/html; charset="), None);
        assert_eq!(
            charset_from_meta_content(b"text/html; charset = \"euc-jp\""),
            Some("euc-jp".into())
        );
        assert_eq!(charset_from_meta_content(b"text/html; charset"), None);
    }
}
