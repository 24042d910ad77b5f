//! Stop words and page-language detection for CEVC's valid-character test
//! (paper 004 §2.1, ALGORITHMS.md §3).
//!
//! The lists are short on purpose: function words only (articles,
//! prepositions, pronouns, auxiliaries, particles). CEVC uses a stop word as
//! evidence that a text node is a *sentence*; broad lists such as
//! stopwords-iso also hold content words that are common in navigation
//! chrome ("home", "new", "next", "更多"), which would make menus valid.
//! Hence hand-picked lists here rather than a registry crate.
//!
//! Invariants: every list entry is lower-case; for space-separated languages
//! the test is on whole words (split at non-alphanumeric characters); for
//! Chinese and Japanese, which have no spaces, the test is a substring test.

use std::collections::HashSet;
use std::sync::OnceLock;

/// Languages with a stop-word list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Zh,
    De,
    Fr,
    Es,
    Ru,
    Ja,
    Ko,
}

pub const ALL_LANGS: [Lang; 8] = [
    Lang::En,
    Lang::Zh,
    Lang::De,
    Lang::Fr,
    Lang::Es,
    Lang::Ru,
    Lang::Ja,
    Lang::Ko,
];

const EN: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "are", "as", "at", "be", "because", "been",
    "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he",
    "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "more", "my", "no", "not",
    "of", "on", "one", "or", "our", "out", "over", "said", "she", "so", "some", "such", "than",
    "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "will", "with", "would",
    "you", "your",
];
const DE: &[&str] = &[
    "aber", "als", "an", "auch", "auf", "aus", "bei", "bis", "das", "dass", "dem", "den", "der",
    "des", "die", "durch", "ein", "eine", "einem", "einen", "einer", "eines", "er", "es", "für",
    "haben", "hat", "ich", "im", "in", "ist", "kann", "man", "mehr", "mit", "nach", "nicht",
    "noch", "nur", "oder", "schon", "sich", "sie", "sind", "so", "um", "und", "von", "vor", "war",
    "wenn", "werden", "wie", "wir", "wird", "wurde", "zu", "zum", "zur", "über",
];
const FR: &[&str] = &[
    "a", "au", "aussi", "aux", "avec", "c", "ce", "cette", "comme", "d", "dans", "de", "des", "du",
    "elle", "en", "est", "et", "il", "ils", "je", "l", "la", "le", "les", "leur", "mais", "n",
    "ne", "nous", "ou", "par", "pas", "plus", "pour", "qu", "que", "qui", "s", "sa", "se", "ses",
    "son", "sont", "sur", "très", "un", "une", "vous", "y", "été", "être",
];
const ES: &[&str] = &[
    "al", "como", "con", "cuando", "de", "del", "desde", "el", "en", "entre", "es", "esta", "este",
    "está", "fue", "ha", "hay", "la", "las", "le", "les", "lo", "los", "muy", "más", "no", "o",
    "para", "pero", "por", "que", "se", "ser", "sin", "sobre", "su", "sus", "también", "todo",
    "un", "una", "y", "ya",
];
const RU: &[&str] = &[
    "бы",
    "был",
    "была",
    "были",
    "было",
    "в",
    "вы",
    "где",
    "да",
    "для",
    "до",
    "его",
    "ее",
    "если",
    "еще",
    "её",
    "ещё",
    "же",
    "за",
    "и",
    "из",
    "или",
    "к",
    "как",
    "когда",
    "который",
    "которые",
    "мы",
    "на",
    "не",
    "нет",
    "но",
    "о",
    "она",
    "они",
    "он",
    "от",
    "по",
    "при",
    "с",
    "так",
    "также",
    "там",
    "тем",
    "то",
    "только",
    "у",
    "уже",
    "что",
    "чтобы",
    "это",
    "этот",
    "я",
];
/// Chinese function words; tested as substrings (no word boundaries in Chinese).
const ZH: &[&str] = &[
    "的", "了", "是", "在", "和", "也", "就", "这", "都", "而", "与", "被", "从", "对", "将", "把",
    "并", "于", "我们", "他们", "一个", "没有", "因为", "所以", "但是", "如果", "已经", "可以",
];
/// Japanese particles and auxiliaries (hiragana); tested as substrings.
const JA: &[&str] = &[
    "の", "に", "は", "を", "が", "で", "て", "と", "も", "た", "です", "ます", "から", "こと",
];

/// Korean sentence endings and word-final particles; tested as substrings
/// (particles are written attached to their word, so a trailing space marks
/// the end of the word).
const KO: &[&str] = &[
    "니다", "했다", "이다", "있다", "없다", "한다", "은 ", "는 ", "을 ", "를 ", "의 ", "에 ",
    "에서 ", "으로 ", "와 ", "과 ", "도 ",
];

fn list(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::En => EN,
        Lang::Zh => ZH,
        Lang::De => DE,
        Lang::Fr => FR,
        Lang::Es => ES,
        Lang::Ru => RU,
        Lang::Ja => JA,
        Lang::Ko => KO,
    }
}

/// True for languages written without spaces (substring test).
fn is_unspaced(lang: Lang) -> bool {
    matches!(lang, Lang::Zh | Lang::Ja | Lang::Ko)
}

fn word_set(lang: Lang) -> &'static HashSet<&'static str> {
    static SETS: OnceLock<Vec<HashSet<&'static str>>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        ALL_LANGS
            .iter()
            .map(|&l| list(l).iter().copied().collect())
            .collect()
    });
    // ALL_LANGS lists every variant in declaration order.
    &sets[lang as usize]
}

impl Lang {
    /// Language of a BCP 47 tag's primary subtag (`en-GB` → En), if listed.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            "de" => Some(Lang::De),
            "fr" => Some(Lang::Fr),
            "es" => Some(Lang::Es),
            "ru" => Some(Lang::Ru),
            "ja" => Some(Lang::Ja),
            "ko" => Some(Lang::Ko),
            _ => None,
        }
    }

    /// Number of stop-word occurrences of this language in `text`.
    pub fn count_stop_words(self, text: &str) -> usize {
        if is_unspaced(self) {
            list(self).iter().map(|w| text.matches(w).count()).sum()
        } else {
            let set = word_set(self);
            words(text).filter(|w| set.contains(w.as_str())).count()
        }
    }

    /// True when `text` holds at least one stop word of this language.
    pub fn has_stop_word(self, text: &str) -> bool {
        if is_unspaced(self) {
            list(self).iter().any(|w| text.contains(w))
        } else {
            let set = word_set(self);
            words(text).any(|w| set.contains(w.as_str()))
        }
    }
}

/// The stop-word test for a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopWords {
    /// The list of a known language.
    One(Lang),
    /// A language without a list (Indonesian, Portuguese, Arabic, …): the
    /// page's own most frequent short words outside links stand in for its
    /// function words (see [`page_stop_words`]).
    Page(HashSet<String>),
}

impl StopWords {
    pub fn has_stop_word(&self, text: &str) -> bool {
        match self {
            StopWords::One(l) => l.has_stop_word(text),
            StopWords::Page(set) => words(text).any(|w| set.contains(&w)),
        }
    }
}

/// Lower-cased words of a space-separated text.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Letters needed before the text alone decides the language.
const MIN_LETTERS_FOR_TEXT: usize = 20;
/// Share of a Latin-script text's words that must be stop words of a
/// listed language for the text to count as that language (running prose
/// in en/de/fr/es has 30–50 %; other Latin-script languages a few %).
const MIN_STOP_WORD_SHARE: f64 = 0.08;
/// Size of a page-derived stop-word list.
pub const PAGE_STOP_WORDS: usize = 20;
/// Longest word (in characters) taken into a page-derived list.
const PAGE_STOP_WORD_MAX_CHARS: usize = 4;

/// The most frequent words of at most 4 characters in `texts` (the texts
/// outside links), at most [`PAGE_STOP_WORDS`] of them, each seen at least
/// 3 times. Function words are the shortest and most frequent words of any
/// language written with spaces, so this approximates a stop list for
/// languages that have none here.
pub fn page_stop_words(texts: &[&str]) -> HashSet<String> {
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for t in texts {
        for w in words(t) {
            let n = w.chars().count();
            if n <= PAGE_STOP_WORD_MAX_CHARS && !w.chars().all(|c| c.is_ascii_digit()) {
                *counts.entry(w).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().filter(|(_, c)| *c >= 3).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked
        .into_iter()
        .take(PAGE_STOP_WORDS)
        .map(|(w, _)| w)
        .collect()
}

/// Decide which stop words a page uses; `texts` are its text nodes outside links.
///
/// Choice (the paper assumes the language is known): the text decides when
/// it has at least 20 letters. The dominant script picks Chinese/Japanese
/// (kana share of CJK letters ≥ 10 % → Japanese), Hangul → Korean, Cyrillic
/// → Russian; for Latin script the listed language with the most stop-word
/// hits wins if at least 8 % of the words are its stop words (a declared
/// `<html lang>` among en/de/fr/es keeps its list unless another has twice
/// its hits). Anything else — other scripts, other Latin-script languages,
/// or an `<html lang>` naming an unlisted language on a short page — gets a
/// page-derived list ([`StopWords::Page`]). The text wins over the tag
/// because templates often declare a language the page is not written in.
pub fn detect(lang_attr: Option<&str>, texts: &[&str]) -> StopWords {
    let (mut han, mut kana, mut hangul, mut cyr, mut latin, mut other) = (0usize, 0, 0, 0, 0, 0);
    let mut latin_hits = [0usize; ALL_LANGS.len()];
    let mut latin_words = 0usize;
    let mut sampled = 0usize;
    for t in texts {
        for c in t.chars() {
            match c as u32 {
                0x3040..=0x30FF => kana += 1,
                0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => han += 1,
                0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => hangul += 1,
                0x0400..=0x04FF => cyr += 1,
                _ if c.is_alphabetic() && (c.is_ascii() || (c as u32) < 0x0250) => latin += 1,
                _ if c.is_alphabetic() => other += 1,
                _ => {}
            }
        }
        if t.chars().any(|c| c.is_ascii_alphabetic()) {
            latin_words += words(t).count();
            for l in [Lang::En, Lang::De, Lang::Fr, Lang::Es] {
                latin_hits[l as usize] += l.count_stop_words(t);
            }
        }
        sampled += t.len();
        // A page's first 200 kB of text is plenty to decide.
        if sampled > 200_000 {
            break;
        }
    }
    let declared = lang_attr.and_then(Lang::from_tag);
    let declared_unlisted = lang_attr.is_some_and(|t| !t.trim().is_empty()) && declared.is_none();
    let cjk = han + kana;
    let total = cjk + hangul + cyr + latin + other;
    if total >= MIN_LETTERS_FOR_TEXT {
        let top = cjk.max(hangul).max(cyr).max(latin).max(other);
        if top == cjk {
            return StopWords::One(if kana * 10 >= cjk { Lang::Ja } else { Lang::Zh });
        }
        if top == hangul {
            return StopWords::One(Lang::Ko);
        }
        if top == cyr {
            return StopWords::One(Lang::Ru);
        }
        if top == latin {
            let best = [Lang::En, Lang::De, Lang::Fr, Lang::Es]
                .into_iter()
                .max_by_key(|l| latin_hits[*l as usize])
                .unwrap_or(Lang::En);
            let share = latin_hits[best as usize] as f64 / latin_words.max(1) as f64;
            if share >= MIN_STOP_WORD_SHARE && !declared_unlisted {
                if let Some(decl) = declared
                    && matches!(decl, Lang::En | Lang::De | Lang::Fr | Lang::Es)
                    && latin_hits[decl as usize] * 2 >= latin_hits[best as usize]
                {
                    return StopWords::One(decl);
                }
                return StopWords::One(best);
            }
        }
        return StopWords::Page(page_stop_words(texts));
    }
    match declared {
        Some(l) => StopWords::One(l),
        None => StopWords::Page(page_stop_words(texts)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_stop_words_match_inside_unspaced_text() {
        let sentence = "国务院总理昨天在北京会见了来访的代表团。";
        assert!(Lang::Zh.has_stop_word(sentence));
        // A menu of nouns has no function word.
        assert!(!Lang::Zh.has_stop_word("首页 新闻 体育 财经 科技"));
        assert!(Lang::Zh.count_stop_words("我们的国家和他们的城市") >= 4);
    }

    #[test]
    fn english_test_is_on_whole_words() {
        assert!(Lang::En.has_stop_word("The minister said on Tuesday"));
        // "there" contains "the" but "Theatre Weather" has no stop word.
        assert!(!Lang::En.has_stop_word("Theatre Weather Sports"));
    }

    #[test]
    fn detection_prefers_text_over_a_wrong_lang_attribute() {
        let zh = [
            "据新华社报道，这是今年以来我国在科技领域取得的又一项重要成果，专家认为其意义重大，将推动相关产业的发展。",
        ];
        assert_eq!(detect(Some("en"), &zh), StopWords::One(Lang::Zh));
        let ja = ["東京都は新しい計画を発表しました。これは市民の生活を改善するためのものです。"];
        assert_eq!(detect(None, &ja), StopWords::One(Lang::Ja));
        let de = [
            "Die Regierung hat am Montag ein neues Gesetz beschlossen, das die Mieten begrenzen soll.",
        ];
        assert_eq!(detect(None, &de), StopWords::One(Lang::De));
        let ru = [
            "Правительство объявило о новых мерах, которые должны помочь малому бизнесу в регионах.",
        ];
        assert_eq!(detect(None, &ru), StopWords::One(Lang::Ru));
        let ko =
            ["서울시는 새로운 계획을 발표했다. 이 계획은 시민의 생활을 개선하기 위한 것입니다."];
        assert_eq!(detect(None, &ko), StopWords::One(Lang::Ko));
        // Too little text: the attribute decides.
        assert_eq!(detect(Some("fr-FR"), &["Oui"]), StopWords::One(Lang::Fr));
    }

    #[test]
    fn unlisted_language_gets_the_pages_own_short_frequent_words() {
        let id = [
            "Pemerintah kota akan membangun jembatan baru di atas sungai yang besar itu.",
            "Jembatan ini akan menghubungkan daerah utara dengan pusat kota yang ramai dan di sana ada pasar.",
            "Warga yang tinggal di dekat sungai itu senang dengan rencana ini dan akan ikut.",
        ];
        let sw = detect(Some("id"), &id);
        let StopWords::Page(set) = &sw else {
            panic!("{sw:?}")
        };
        assert!(
            set.contains("di") && set.contains("yang") && set.contains("akan"),
            "{set:?}"
        );
        assert!(sw.has_stop_word("Harga beras naik di pasar"));
        assert!(!sw.has_stop_word("Beranda Berita Olahraga"));
    }
}
