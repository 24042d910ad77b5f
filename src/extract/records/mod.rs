//! Mined patterns → data records.
//!
//! Paper mode (001 §3.2 end): the surviving pattern with the highest
//! coverage wins and each of its instances is one record, exactly the token
//! range the instance spans.
//!
//! Structural mode (the default) keeps the paper's candidates but judges
//! them by the records they imply instead of the exact repeats:
//! 1. *Lift*: an instance is mapped to the run of whole sibling subtrees
//!    that covers it under the instances' lowest common ancestor; when the
//!    instances of a pattern sit one per record deeper inside (a headline
//!    after an optional thumbnail), they are lifted to the ancestor at which
//!    they become siblings.
//! 2. *Group*: instances under the same container form one record group;
//!    every candidate pattern that implies the same group votes for it.
//! 3. *Widen*: all children of the container with the group's root tag
//!    join the group when their structure (bag of tag names) is similar to
//!    the records already found, which brings back records that an optional
//!    image, badge or missing date split off the exact repeat, and keeps out
//!    header rows and separators.
//! 4. *Rank*: Rules 1, 2, 3 and 5 are applied to the group's records, then
//!    groups are scored by text coverage weighted by how headline-like their
//!    links are, so navigation, tag clouds, footers and pagination lose to
//!    the main list.
//!
//! Invariants: a [`Record`] is a preorder node range `start..end` of the
//! arena; records of one group are disjoint and in document order.

use rustc_hash::FxHashMap as HashMap;

mod aside;
mod bare;
mod cells;
mod chrome;
mod companions;
mod day_cells;
mod hidden;
mod indexed;
mod kinds;
mod nested;
mod score;
mod sections;
mod short;
mod siblings;
mod sidebar;
mod straggler;
mod widgets;

pub(crate) use kinds::class_tokens;
use kinds::{Kind, Kinds, Tag, stable_classes};
use score::score_group;

use crate::extract::dom::{Document, Name, NodeData, NodeId, is_heading};
use crate::extract::items::interludes;
use crate::extract::patterns::{DropReason, Mining, MiningParams, Mode, PatternCandidate};
use crate::extract::sequence::TagSequence;

/// One data record: the arena nodes `start..end` (whole subtrees in
/// structural mode; exactly an instance's tokens in paper mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub start: NodeId,
    pub end: NodeId,
}

/// A set of records under one container, with the evidence for it.
#[derive(Debug, Clone)]
pub struct RecordGroup {
    /// Container element (`None` in paper mode).
    pub container: Option<NodeId>,
    pub records: Vec<Record>,
    /// Share of the page's visible text inside the records.
    pub coverage: f64,
    /// Ranking score (higher wins).
    pub score: f64,
    /// Indices into [`Mining::candidates`] of the patterns that implied it.
    pub patterns: Vec<usize>,
    /// Why the group was dropped, if it was.
    pub dropped: Option<DropReason>,
    /// Human-readable location, e.g. `body > main > ul.posts > li`.
    pub selector: String,
    /// The records are a thread's comments, replies nested in what they
    /// answer: ranked by their own prose rather than by headline links.
    pub thread: bool,
    /// The winner's records that stand apart from it (a lead post above
    /// the list, one more under a "More" heading): see `straggler.rs`.
    pub stragglers: Vec<Record>,
}

impl RecordGroup {
    /// An unscored group of whole elements `roots` of `container`, each
    /// a record, located as `container > child` (`child` as a selector
    /// step names the roots: `li.post`, `a`).
    pub(super) fn of_elements(
        doc: &Document,
        container: NodeId,
        child: &str,
        roots: &[NodeId],
    ) -> RecordGroup {
        RecordGroup {
            container: Some(container),
            selector: format!("{} > {child}", selector(doc, container)),
            records: roots
                .iter()
                .map(|&r| Record {
                    start: r,
                    end: doc.node(r).end,
                })
                .collect(),
            coverage: 0.0,
            score: 0.0,
            patterns: Vec::new(),
            dropped: None,
            thread: false,
            stragglers: Vec::new(),
        }
    }

    /// True when straggler `r` is a twin of the records (of the tag and
    /// class most of them start at): its title is read as theirs are.
    pub fn is_twin(&self, doc: &Document, r: &Record) -> bool {
        straggler::is_twin(doc, &self.records, r)
    }
}

/// Outcome of record detection for one page.
#[derive(Debug, Clone, Default)]
pub struct Detection {
    /// Groups, winner first when there is one (`dropped == None`).
    pub groups: Vec<RecordGroup>,
}

impl Detection {
    pub fn winner(&self) -> Option<&RecordGroup> {
        self.groups.first().filter(|g| g.dropped.is_none())
    }
}

/// Detect the page's records from its mined patterns.
pub fn detect(
    doc: &Document,
    seq: &TagSequence,
    mining: &Mining,
    params: &MiningParams,
) -> Detection {
    match params.mode {
        Mode::Paper => detect_paper(doc, seq, mining),
        Mode::Structural => detect_structural(doc, seq, mining, params),
    }
}

fn detect_paper(doc: &Document, seq: &TagSequence, mining: &Mining) -> Detection {
    let groups = mining
        .candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.dropped.is_none())
        .map(|(i, c)| {
            let records = c
                .instances
                .iter()
                .map(|&p| Record {
                    start: seq.nodes[p as usize],
                    end: seq.nodes[(p + c.len - 1) as usize] + 1,
                })
                .collect::<Vec<_>>();
            RecordGroup {
                container: None,
                selector: records
                    .first()
                    .map(|r| selector(doc, r.start))
                    .unwrap_or_default(),
                records,
                coverage: c.coverage,
                score: c.coverage,
                patterns: vec![i],
                dropped: None,
                thread: false,
                stragglers: Vec::new(),
            }
        })
        .collect();
    // Mining already sorted survivors by coverage.
    Detection { groups }
}

/// Parent and depth of every arena node, packed. Detection walks up to
/// common ancestors for every instance of every candidate; at 8 bytes a
/// node those walks stay in cache, where the arena's nodes (with their
/// names, attributes and texts) do not. The root is its own parent.
/// Beside them, each node's first token at or after it, which an instance
/// needs once and a binary search over the tokens found in 70% of the
/// time `instance_run` took on a 6,000-record page.
pub(super) struct Links {
    up: Vec<(NodeId, u32)>,
    first_token: Vec<u32>,
}

impl Links {
    pub(super) fn new(doc: &Document, seq: &TagSequence) -> Self {
        let n = doc.nodes.len();
        let mut first_token = vec![seq.nodes.len() as u32; n + 1];
        for i in (0..n).rev() {
            first_token[i] = match seq.token_of_node.get(i) {
                Some(&t) if t != u32::MAX => t,
                _ => first_token[i + 1],
            };
        }
        Links {
            up: doc
                .nodes
                .iter()
                .map(|n| (n.parent.unwrap_or(0), n.depth))
                .collect(),
            first_token,
        }
    }

    fn up(&self, n: NodeId) -> NodeId {
        self.up.get(n as usize).map_or(0, |l| l.0)
    }

    fn depth(&self, n: NodeId) -> u32 {
        self.up.get(n as usize).map_or(0, |l| l.1)
    }

    /// The first token whose node is `n` or comes after it (the number of
    /// tokens when none does).
    fn first_token_from(&self, n: NodeId) -> u32 {
        self.first_token
            .get(n as usize)
            .or(self.first_token.last())
            .copied()
            .unwrap_or(0)
    }

    /// Lowest common ancestor of `a` and `b` (each counts as its own
    /// ancestor) and, from the same walk, the node just below it on the
    /// path up from each (`a` or `b` itself when that one is a child of the
    /// ancestor, or is the ancestor).
    pub(super) fn lca_with_children(
        &self,
        mut a: NodeId,
        mut b: NodeId,
    ) -> (NodeId, NodeId, NodeId) {
        let (mut below_a, mut below_b) = (a, b);
        while self.depth(a) > self.depth(b) {
            below_a = a;
            a = self.up(a);
        }
        while self.depth(b) > self.depth(a) {
            below_b = b;
            b = self.up(b);
        }
        while a != b {
            below_a = a;
            below_b = b;
            a = self.up(a);
            b = self.up(b);
        }
        (a, below_a, below_b)
    }
}

/// How many levels an instance may be lifted to find sibling records.
const MAX_LIFT: usize = 4;

/// How many levels above a list a repeated wrapper may sit for the lists
/// in its siblings to join it (a section > a grid > its row of cards).
const MAX_WRAP: usize = 3;

/// Similarity (Dice over tag-name bags) a widened member needs with the
/// group's prototype bag.
const WIDEN_SIMILARITY: f64 = 0.5;

/// An instance as a run of siblings `first..=last` under `container`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Run {
    container: NodeId,
    first: NodeId,
    last: NodeId,
}

/// The kinds of a [`Place::Cousins`] chain, from the wrapper down to the
/// container: at most [`MAX_WRAP`] + 1, kept inline so that a place is
/// `Copy` (every candidate asks for the places of its containers again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Chain {
    /// The container's kind first while the chain is built; [`Chain::len`]
    /// are in use, the rest stay as the container's kind.
    kinds: [Kind; MAX_WRAP + 1],
    len: u8,
    /// The top wrapper is one of repeated sections whose own sections
    /// hold the lists (days › sessions › papers): every list of the chain
    /// joins, as one level of sections does (see [`Place::deep`]).
    sections: bool,
}

impl Chain {
    fn new(container: Kind) -> Self {
        Chain {
            kinds: [container; MAX_WRAP + 1],
            len: 1,
            sections: false,
        }
    }

    /// Add the kind of the next wrapper up (ignored beyond the capacity).
    fn push(&mut self, kind: Kind) {
        if let Some(slot) = self.kinds.get_mut(usize::from(self.len)) {
            *slot = kind;
            self.len += 1;
        }
    }

    /// Wrapper first, container last.
    fn top_down(mut self) -> Self {
        self.kinds[..usize::from(self.len)].reverse();
        self
    }

    fn as_slice(&self) -> &[Kind] {
        &self.kinds[..usize::from(self.len)]
    }
}

/// Where the records of one group live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Place {
    /// The children of one container.
    Single(NodeId),
    /// Sibling containers of one kind under one parent: a grid split into
    /// rows, one list per year side by side under year headings.
    Siblings(NodeId, Kind),
    /// Containers of one kind, each inside a wrapper of one kind (up to
    /// [`MAX_WRAP`] levels of one kind each), under one ancestor: sections
    /// that each hold a heading and their own list, a grid whose rows are
    /// blocks of their own. The kinds run from the wrapper down to the
    /// container.
    Cousins(NodeId, Chain),
    /// Records of one kind, each alone in a container of one tag, the
    /// containers nested in one another: threaded comments.
    Thread(Kind, Tag),
}

/// A group's key: where its records live and their root tag.
type Key = (Place, Tag);

impl Place {
    /// Lists under a wrapper more than one level up: only the parts that
    /// are lists themselves join, and only those mining found. Sections of
    /// sections are not deep: their lists all join.
    fn deep(&self) -> bool {
        matches!(self, Place::Cousins(_, chain) if chain.len > 2 && !chain.sections)
    }
}

/// Evidence gathered for one group.
#[derive(Default)]
struct Acc {
    containers: Vec<NodeId>,
    /// Mined runs of siblings, first → last.
    runs: HashMap<NodeId, NodeId>,
    patterns: Vec<usize>,
}

impl<'d> Kinds<'d> {
    /// The place a container's records belong to: its repeated siblings'
    /// or repeated wrappers' lists join it.
    fn place(&mut self, container: NodeId) -> Place {
        if let Some(&p) = self.places.get(&container) {
            return p;
        }
        let p = self.find_place(container);
        self.places.insert(container, p);
        p
    }

    fn find_place(&mut self, container: NodeId) -> Place {
        let doc = self.doc;
        let Some(p) = doc.node(container).parent else {
            return Place::Single(container);
        };
        if self.repeated(container) {
            return Place::Siblings(p, self.kind(container));
        }
        let mut chain = Chain::new(self.kind(container));
        let mut wrapper = p;
        let mut levels = MAX_WRAP;
        // A table's rows sit in the `tbody` the parser adds to every table:
        // under a section's heading the table is the section's list, so
        // the walk up to sections starts above it (a catalogue's
        // departments, each a heading, a line of links and a table of
        // courses, are sections like those holding a `ul`), and above the
        // box a wide table scrolls in, when the table is all it holds (a
        // programme's days, each a heading, a line with a calendar link
        // and its sessions' table). The heading may stand in a head block
        // with its calendar link ([`Document::is_caption`]).
        if doc.is_tag(container, "tbody")
            && doc.is_tag(p, "table")
            && !self.repeated(p)
            && let Some((holder, above)) = table_holder(doc, p)
            && doc
                .children(above)
                .take_while(|&c| c != holder)
                .any(|c| doc.is_caption(c))
        {
            chain.push(self.kind(p));
            if holder != p {
                chain.push(self.kind(holder));
                levels -= 1;
            }
            wrapper = above;
            levels -= 1;
        }
        // Lone wrappers on the way up, by their place in the chain: known
        // by their component once a repeated wrapper is found above them
        // (the sections' views of one list name the section they show).
        let mut lone = [(0usize, 0 as NodeId); MAX_WRAP];
        let mut lones = 0;
        for level in 1..=levels {
            let Some(g) = doc.node(wrapper).parent else {
                break;
            };
            let repeated = self.repeated(wrapper);
            if !repeated && lones < MAX_WRAP {
                lone[lones] = (usize::from(chain.len), wrapper);
                lones += 1;
            }
            chain.push(self.kind(wrapper));
            if repeated {
                for &(at, w) in &lone[..lones] {
                    let component = self.component(w);
                    if let Some(slot) = chain.kinds.get_mut(at) {
                        *slot = component;
                    }
                }
                // Sections of sections (a programme's days, each holding
                // its sessions' lists): the lists of all days join.
                if level == 1
                    && let Some(top) = doc.node(g).parent
                    && self.repeated(g)
                {
                    chain.push(self.kind(g));
                    chain.sections = true;
                    return Place::Cousins(top, chain.top_down());
                }
                return Place::Cousins(g, chain.top_down());
            }
            // Deeper up, only plain wrappers: a block beside links of its
            // own is part of a record (a card's share buttons beside its
            // title), not a section around a list.
            if level == levels || !plain_wrapper(doc, wrapper) {
                break;
            }
            wrapper = g;
        }
        Place::Single(container)
    }
}

/// The element that holds `table` in its section, and that element's
/// parent: the table itself, or the box around it when the table is the
/// box's only element (`div.table-scroll > table`).
fn table_holder(doc: &Document, table: NodeId) -> Option<(NodeId, NodeId)> {
    let above = doc.node(table).parent?;
    let only_child = doc
        .children(above)
        .filter(|&c| doc.element(c).is_some())
        .all(|c| c == table);
    let box_parent = doc.node(above).parent;
    match box_parent {
        Some(grand) if only_child && doc.is_tag(above, "div") => Some((above, grand)),
        _ => Some((table, above)),
    }
}

/// True when every element beside `id` is a heading or holds no link:
/// `id` wraps its section's list under the section's title, and nothing
/// else of the section can be followed.
fn plain_wrapper(doc: &Document, id: NodeId) -> bool {
    let Some(p) = doc.node(id).parent else {
        return false;
    };
    doc.children(p)
        .take(crate::extract::sequence::MAX_CHILDREN as usize)
        .filter(|&c| c != id && doc.element(c).is_some())
        .all(|c| {
            doc.tag(c).is_some_and(is_heading)
                || !has_link(
                    doc,
                    &Record {
                        start: c,
                        end: doc.node(c).end,
                    },
                )
        })
}

fn detect_structural(
    doc: &Document,
    seq: &TagSequence,
    mining: &Mining,
    params: &MiningParams,
) -> Detection {
    let min_ins = params.min_instances.max(2);
    let mut kinds = Kinds::new(doc);
    let links = Links::new(doc, seq);
    let mut acc: HashMap<Key, Acc> = HashMap::default();
    // Candidates whose instances map to the same runs imply the same
    // groups (two in three on the evaluation pages): they only vote.
    let mut implied: HashMap<Vec<Run>, Vec<Key>> = HashMap::default();
    let mut runs: Vec<Run> = Vec::new();
    let mut scratch = Scratch::default();
    for (ci, cand) in mining.candidates.iter().enumerate() {
        if cand.dropped.is_some() {
            continue;
        }
        runs.clear();
        runs.extend(
            cand.instances
                .iter()
                .map(|&p| instance_run(doc, &links, seq, cand, p)),
        );
        if let Some(keys) = implied.get(runs.as_slice()) {
            for key in keys {
                if let Some(e) = acc.get_mut(key) {
                    e.patterns.push(ci);
                }
            }
            continue;
        }
        let voted = collect_runs(doc, &mut kinds, &mut acc, &mut scratch, ci, &runs, min_ins);
        implied.insert(runs.clone(), voted);
    }

    let total_text = seq.total_text().max(1) as f64;
    let mut groups: Vec<RecordGroup> = acc
        .into_iter()
        .map(|((place, tag), a)| {
            let tag = kinds.tag_name(tag);
            let mut containers = expand_place(doc, &mut kinds, &place, a.containers);
            if !matches!(place, Place::Thread(..)) {
                sidebar::without_sidebars(doc, &mut containers);
            }
            let records = match place {
                Place::Thread(..) => thread_records(doc, &containers),
                _ => {
                    // Sections nested in the containers of a list of lists.
                    let nested = match place {
                        Place::Siblings(..) => subsections(doc, &mut kinds, &containers),
                        // Sections of sections: every list the chain
                        // reaches is the group's, mined or not (a day whose
                        // one session holds four papers).
                        Place::Cousins(_, chain) if chain.sections => {
                            let mut all = subsections(doc, &mut kinds, &containers);
                            all.extend_from_slice(&containers);
                            all
                        }
                        Place::Cousins(..) if !place.deep() => {
                            subsections(doc, &mut kinds, &containers)
                        }
                        _ => Vec::new(),
                    };
                    place_records(doc, &mut kinds, &containers, &nested, tag, &a.runs)
                }
            };
            let container = containers.first().copied().unwrap_or(0);
            let mut g = RecordGroup {
                container: Some(container),
                selector: format!("{} > {}", selector(doc, container), tag),
                coverage: 0.0,
                score: 0.0,
                patterns: a.patterns,
                dropped: None,
                thread: matches!(place, Place::Thread(..)),
                records,
                stragglers: Vec::new(),
            };
            score_group(doc, &mut g, params, total_text, min_ins);
            g
        })
        .collect();
    let shorts = short::groups(doc, &mut kinds, &links, &groups, min_ins);
    for mut g in shorts {
        score_group(doc, &mut g, params, total_text, 2);
        groups.push(g);
    }
    // A bare link is two tokens: its list shows itself by its length and
    // its headlines (see `bare`), not by Rule 2.
    let bare_params = MiningParams {
        min_record_len: 2,
        ..params.clone()
    };
    for mut g in bare::groups(doc, &groups) {
        score_group(doc, &mut g, &bare_params, total_text, bare::MIN_BARE_LINKS);
        groups.push(g);
    }
    rank(&mut groups);
    if nested::split_top(doc, &mut kinds, &mut groups, |g| {
        score_group(doc, g, params, total_text, min_ins)
    }) {
        rank(&mut groups);
    }
    if chrome::demote(doc, &mut groups) {
        rank(&mut groups);
    }
    if sections::demote(doc, &mut groups) {
        rank(&mut groups);
    }
    if cells::demote(doc, &mut groups) {
        rank(&mut groups);
    }
    if hidden::demote(doc, &mut groups) {
        rank(&mut groups);
    }
    day_cells::split(doc, &mut groups);
    companions::join(doc, &mut kinds, &mut groups);
    if let Some(winner) = groups.first_mut().filter(|g| g.dropped.is_none()) {
        winner.stragglers = straggler::find(doc, winner);
    }
    Detection { groups }
}

/// Winner first: kept groups by score, then page order. Groups tied at one
/// container put records that start at an element before records that
/// start at a line break or rule, and those before records that start at
/// text ([`root_rank`]), then go by selector: their order never depends
/// on a hash map's layout.
fn rank(groups: &mut [RecordGroup]) {
    groups.sort_by(|a, b| {
        a.dropped
            .is_some()
            .cmp(&b.dropped.is_some())
            .then(b.score.total_cmp(&a.score))
            .then(a.container.cmp(&b.container))
            .then_with(|| root_rank(a).cmp(&root_rank(b)))
            .then_with(|| a.selector.cmp(&b.selector))
    });
}

/// What a group's records start at, by its selector's last step: 0 an
/// element with content, 1 a `<br>` or `<hr>` between posts (a weblog's
/// `div.copy` posts, each followed by a `<br>`, read from the break as
/// well as from the post), 2 text (`ul > ` where element records give
/// `ul > li`).
fn root_rank(g: &RecordGroup) -> u8 {
    let step = g.selector.rsplit(" > ").next().unwrap_or("");
    let tag = step.split(['.', '#', ':', '[']).next().unwrap_or("");
    match tag {
        "" if g.selector.ends_with(" > ") => 2,
        "br" | "hr" => 1,
        _ => 0,
    }
}

/// Buffers every candidate's [`collect_runs`] reuses: allocated once per
/// page, not once per candidate and lift level.
#[derive(Default)]
struct Scratch {
    /// The level's runs, and the next level's.
    runs: Vec<Run>,
    lifted: Vec<Run>,
    /// (place and root tag, container, distinct roots) per container,
    /// sorted by key so each place's containers are one slice (in
    /// container order).
    by_place: Vec<(Key, NodeId, usize)>,
    /// The members of one place.
    members: Vec<(NodeId, usize)>,
    /// The containers holding one root, with it.
    singles: Vec<(NodeId, NodeId)>,
    parts: Vec<Part>,
}

/// Add one candidate's instance runs to the groups: at the first lift
/// level where some place holds enough distinct roots (Rule 1), every such
/// place takes the runs; threads (each root alone in a container, the
/// containers nested) are taken at every level. Returns every group the
/// candidate votes for.
fn collect_runs<'d>(
    doc: &'d Document,
    kinds: &mut Kinds<'d>,
    acc: &mut HashMap<Key, Acc>,
    scratch: &mut Scratch,
    ci: usize,
    instances: &[Run],
    min_ins: usize,
) -> Vec<Key> {
    let Scratch {
        runs,
        lifted,
        by_place,
        members,
        singles,
        parts,
    } = scratch;
    let mut voted = Vec::new();
    runs.clear();
    runs.extend_from_slice(instances);
    for _level in 0..MAX_LIFT {
        let by_container = ByContainer::new(runs, std::mem::take(parts));
        by_place.clear();
        singles.clear();
        for part in &by_container.parts {
            if part.roots == 1 {
                singles.push((part.container, part.first_root));
            }
            let key = (kinds.place(part.container), kinds.tag_id(part.first_root));
            by_place.push((key, part.container, part.roots));
        }
        by_place.sort_by_key(|a| a.0);
        let mut any_group = false;
        for same in by_place.chunk_by(|a, b| a.0 == b.0) {
            let key = same[0].0;
            members.clear();
            members.extend(same.iter().map(|&(_, c, n)| (c, n)));
            // Under a deeper wrapper, only parts that are lists themselves:
            // several roots (a page-layout row whose header table matches
            // once is no part), all of one kind (a release's header and
            // notes are the parts of one record, not a list).
            if key.0.deep() {
                members.retain(|&(c, n)| n >= 2 && alike_roots(kinds, by_container.runs_of(c)));
            }
            let roots: usize = members.iter().map(|m| m.1).sum();
            // A place of several containers is a list split in parts only
            // when one part holds several records; containers that hold
            // one root each are records themselves, found one level up.
            let list_like =
                matches!(key.0, Place::Single(_)) || members.iter().any(|&(_, n)| n >= 2);
            if roots < min_ins || !list_like {
                continue;
            }
            any_group = true;
            voted.push(key);
            let e = acc.entry(key).or_default();
            for &(c, _) in members.iter() {
                e.containers.push(c);
                add_runs(e, by_container.runs_of(c));
            }
            e.patterns.push(ci);
        }
        for key in collect_thread(doc, kinds, acc, singles, &by_container, min_ins) {
            if let Some(e) = acc.get_mut(&key) {
                e.patterns.push(ci);
            }
            voted.push(key);
        }
        *parts = by_container.parts;
        if any_group {
            break;
        }
        // Lift: each instance becomes its container, one level up.
        lifted.clear();
        lifted.extend(runs.iter().filter_map(|r| {
            doc.node(r.container).parent.map(|p| Run {
                container: p,
                first: r.container,
                last: r.container,
            })
        }));
        if lifted.is_empty() {
            break;
        }
        std::mem::swap(runs, lifted);
    }
    voted
}

/// One level's runs grouped by container: the runs sorted by container
/// (then root), and per container its slice, its number of distinct roots
/// and its first root. Sorting one vector replaces a map of vectors that
/// every candidate built again on every lift level.
struct ByContainer<'r> {
    runs: &'r [Run],
    /// In container order.
    parts: Vec<Part>,
}

struct Part {
    container: NodeId,
    range: std::ops::Range<usize>,
    roots: usize,
    first_root: NodeId,
}

impl<'r> ByContainer<'r> {
    /// Group `runs` (sorted here), writing the parts into `parts` (its
    /// old content is dropped; passed in so its buffer is reused).
    fn new(runs: &'r mut [Run], mut parts: Vec<Part>) -> Self {
        runs.sort_unstable_by_key(|r| (r.container, r.first, r.last));
        parts.clear();
        for (i, r) in runs.iter().enumerate() {
            match parts.last_mut() {
                Some(p) if p.container == r.container => {
                    if runs[i - 1].first != r.first {
                        p.roots += 1;
                    }
                    p.range.end = i + 1;
                }
                _ => parts.push(Part {
                    container: r.container,
                    range: i..i + 1,
                    roots: 1,
                    first_root: r.first,
                }),
            }
        }
        ByContainer { runs, parts }
    }

    /// The runs under `container` (none when it holds no run).
    fn runs_of(&self, container: NodeId) -> &'r [Run] {
        match self.parts.binary_search_by_key(&container, |p| p.container) {
            Ok(i) => &self.runs[self.parts[i].range.clone()],
            Err(_) => &[],
        }
    }
}

/// True when every run starts at an element of one kind.
fn alike_roots(kinds: &mut Kinds<'_>, runs: &[Run]) -> bool {
    let Some(first) = runs.first() else {
        return false;
    };
    let k = kinds.kind(first.first);
    runs.iter().all(|r| kinds.kind(r.first) == k)
}

fn add_runs(e: &mut Acc, runs: &[Run]) {
    for r in runs {
        let last = e.runs.entry(r.first).or_insert(r.last);
        *last = (*last).max(r.last);
    }
}

/// Containers holding one root each, nested in one another (a reply inside
/// the comment it answers): their roots of one kind form one group. The
/// containers and runs join the groups; the groups are returned for the
/// candidate's vote.
fn collect_thread<'d>(
    doc: &'d Document,
    kinds: &mut Kinds<'d>,
    acc: &mut HashMap<Key, Acc>,
    singles: &[(NodeId, NodeId)],
    by_container: &ByContainer<'_>,
    min_ins: usize,
) -> Vec<Key> {
    let mut groups = Vec::new();
    // Each group needs `min_ins` containers of its own.
    if singles.len() < min_ins {
        return groups;
    }
    // (root kind, container tag) and container, sorted by key: each
    // group's containers are one slice, in page order.
    let mut by_kind: Vec<((Kind, Tag), NodeId)> = Vec::new();
    for &(container, root) in singles {
        // Alone of its kind in its container, not one instance among
        // siblings that the pattern happened to miss; and an element (the
        // text runs that start a pattern in every container are not
        // records: they grouped a self-post with the comments under it).
        if doc.element(root).is_none() || kinds.repeated(root) {
            continue;
        }
        let tag = kinds.tag_id(container);
        by_kind.push(((kinds.kind(root), tag), container));
    }
    by_kind.sort_unstable();
    for same in by_kind.chunk_by(|a, b| a.0 == b.0) {
        if same.len() < min_ins {
            continue;
        }
        let (kind, tag) = same[0].0;
        let containers: Vec<NodeId> = same.iter().map(|&(_, c)| c).collect();
        let nested = containers.windows(2).any(|w| doc.contains(w[0], w[1]));
        // The records themselves must not nest: a reply sits beside the
        // comment's own body, not inside it (nested menus fail here).
        let mut roots: Vec<NodeId> = containers
            .iter()
            .flat_map(|&c| by_container.runs_of(c).iter().map(|r| r.first))
            .collect();
        roots.sort_unstable();
        let disjoint = roots.windows(2).all(|w| !doc.contains(w[0], w[1]));
        if !nested || !disjoint {
            continue;
        }
        // The roots are all of `kind`, so their tag is the kind's.
        let root_tag = kinds.tag_of(kind);
        let key = (Place::Thread(kind, tag), root_tag);
        let e = acc.entry(key).or_default();
        for c in containers {
            e.containers.push(c);
            add_runs(e, by_container.runs_of(c));
        }
        groups.push(key);
    }
    groups
}

/// All containers of a place: every sibling (or cousin) container of the
/// same kind takes part, also those whose records were all variants that
/// no exact repeat reached.
fn expand_place(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    place: &Place,
    mut found: Vec<NodeId>,
) -> Vec<NodeId> {
    let cap = crate::extract::sequence::MAX_CHILDREN as usize;
    let mut containers: Vec<NodeId> = match place {
        Place::Siblings(p, k) => {
            let children: Vec<NodeId> = doc.children(*p).take(cap).collect();
            children
                .into_iter()
                .filter(|&c| kinds.kind(c) == *k)
                .collect()
        }
        // Deeper wrappers take the lists mining found in them, and the
        // others between them only when all they hold is records of the
        // kinds found (a day's lone commit): the header row of a page-layout
        // table has the same wrappers as the row holding the list.
        place @ Place::Cousins(g, chain) if place.deep() => {
            found.sort_unstable();
            found.dedup();
            let mut record_kinds: Vec<Kind> = found
                .iter()
                .flat_map(|&c| element_children(doc, c))
                .map(|r| kinds.kind(r))
                .collect();
            record_kinds.sort_unstable();
            record_kinds.dedup();
            let (Some(&first), Some(&last)) = (found.first(), found.last()) else {
                return found;
            };
            let mut all = cousins(doc, kinds, *g, chain);
            all.retain(|c| {
                found.binary_search(c).is_ok()
                    || (first < *c && *c < last && {
                        let mut held = element_children(doc, *c).peekable();
                        held.peek().is_some()
                            && held.all(|r| record_kinds.binary_search(&kinds.kind(r)).is_ok())
                    })
            });
            all
        }
        Place::Cousins(g, chain) => cousins(doc, kinds, *g, chain),
        Place::Single(_) => {
            found.sort_unstable();
            found.dedup();
            found
        }
        Place::Thread(..) => {
            found.sort_unstable();
            found.dedup();
            thread_members(doc, found)
        }
    };
    containers.sort_unstable();
    containers.dedup();
    if matches!(place, Place::Siblings(..) | Place::Single(_)) {
        let parts = split_off_parts(doc, &containers);
        containers.extend(parts);
        containers.sort_unstable();
    }
    containers
}

/// Similarity (Dice over tag-name bags) each member of a split-off part
/// needs with one of the list's members: higher than [`widen`]'s, as the
/// part is not the place mining found records in.
const SPLIT_SIMILARITY: f64 = 0.8;

/// The parts of a list split off into a container of their own right
/// before or after it: a forum's sticky threads in `ol#stickies` above
/// the `ol#threads` they are threads of. Such a part is the element right
/// beside the first or last of `lists`, with the same tag, whose element
/// children are all of the lists' members' tag, carry every class the
/// members share (at least one) and are made like them (their tags,
/// [`SPLIT_SIMILARITY`]): a utility class every element carries does not
/// make a tab bar above a list part of it.
fn split_off_parts(doc: &Document, lists: &[NodeId]) -> Vec<NodeId> {
    let (Some(&first), Some(&last)) = (lists.first(), lists.last()) else {
        return Vec::new();
    };
    let Some(tag) = doc.tag(first) else {
        return Vec::new();
    };
    // Most lists have no element of their tag beside them: nothing more
    // is read then.
    let beside: Vec<NodeId> = [doc.previous_element(first), doc.next_element(last)]
        .into_iter()
        .flatten()
        .filter(|&c| doc.is_tag(c, tag) && !lists.contains(&c))
        .collect();
    if beside.is_empty() {
        return Vec::new();
    }
    let members: Vec<(NodeId, NodeId)> = lists
        .iter()
        .flat_map(|&l| element_children(doc, l))
        .take(MAX_PROTOTYPES)
        .map(|m| (m, m))
        .collect();
    let Some(member_tag) = members.first().and_then(|&(m, _)| doc.tag(m)) else {
        return Vec::new();
    };
    let shared = shared_classes(doc, &members);
    if shared.is_empty() {
        return Vec::new();
    }
    let bags: Vec<TagBag> = members
        .iter()
        .map(|&(m, _)| tag_bag(doc, m, doc.node(m).end))
        .collect();
    let alike = |m: NodeId| {
        let bag = tag_bag(doc, m, doc.node(m).end);
        doc.is_tag(m, member_tag)
            && carries_all(doc, m, &shared)
            && bags.iter().map(|b| dice(&bag, b)).fold(0.0, f64::max) >= SPLIT_SIMILARITY
    };
    let is_part = |c: NodeId| {
        let mut held = element_children(doc, c).peekable();
        held.peek().is_some() && held.all(alike)
    };
    beside.into_iter().filter(|&c| is_part(c)).collect()
}

/// Sections nested in a group's containers that hold records of their own
/// (a department's sub-team with its openings under its own heading): a
/// child of a container that is not of the records' kind, holds at least
/// one record and nothing but records and headings.
fn subsections(doc: &Document, kinds: &mut Kinds<'_>, containers: &[NodeId]) -> Vec<NodeId> {
    let mut counts: HashMap<Kind, usize> = HashMap::default();
    for &c in containers {
        for r in element_children(doc, c) {
            *counts.entry(kinds.kind(r)).or_insert(0) += 1;
        }
    }
    let Some(record) = counts
        .into_iter()
        .max_by_key(|&(k, n)| (n, k))
        .map(|(k, _)| k)
    else {
        return Vec::new();
    };
    let mut nested = Vec::new();
    for &c in containers {
        for x in element_children(doc, c) {
            if kinds.kind(x) == record {
                continue;
            }
            let (mut held, mut other) = (0, false);
            for y in element_children(doc, x) {
                if kinds.kind(y) == record {
                    held += 1;
                } else if !doc.tag(y).is_some_and(is_heading) {
                    other = true;
                    break;
                }
            }
            if held > 0 && !other {
                nested.push(x);
            }
        }
    }
    nested
}

/// The containers of the kinds `chain` names, level by level below `g`.
fn cousins(doc: &Document, kinds: &mut Kinds<'_>, g: NodeId, chain: &Chain) -> Vec<NodeId> {
    let cap = crate::extract::sequence::MAX_CHILDREN as usize;
    let mut level = vec![g];
    for k in chain.as_slice() {
        let below: Vec<NodeId> = level
            .iter()
            .flat_map(|&q| doc.children(q).take(cap))
            .collect();
        level = below
            .into_iter()
            .filter(|&c| kinds.matches(c, *k))
            .collect();
    }
    level
}

/// The element children of `id` (up to the sequence's cap).
fn element_children(doc: &Document, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let cap = crate::extract::sequence::MAX_CHILDREN as usize;
    doc.children(id)
        .take(cap)
        .filter(|&c| doc.element(c).is_some())
}

/// The containers of a thread that carry every stable class most of them
/// carry: a self-post above its comments has the same inner layout
/// (`div.thing > div.entry`) but not the comments' `comment` class.
fn thread_members(doc: &Document, containers: Vec<NodeId>) -> Vec<NodeId> {
    let classes = |id: NodeId| -> Vec<&str> { stable_classes(doc, id).collect() };
    let mut counts: HashMap<&str, usize> = HashMap::default();
    for &c in &containers {
        let mut own = classes(c);
        own.sort_unstable();
        own.dedup();
        for t in own {
            *counts.entry(t).or_insert(0) += 1;
        }
    }
    let majority: Vec<&str> = counts
        .into_iter()
        .filter(|&(_, n)| n * 2 > containers.len())
        .map(|(t, _)| t)
        .collect();
    containers
        .iter()
        .copied()
        .filter(|&c| {
            let own = classes(c);
            majority.iter().all(|t| own.contains(t))
        })
        .collect()
}

/// Records of a thread: each container's own content, without the child
/// that holds its replies (a comment's author line, text and links, not
/// the comments answering it). Containers are in page order, so replies
/// follow the comment they answer.
fn thread_records(doc: &Document, containers: &[NodeId]) -> Vec<Record> {
    let mut records = Vec::with_capacity(containers.len());
    for (n, &c) in containers.iter().enumerate() {
        // The next container inside this one, if any, is its first reply.
        let reply = containers[n + 1..]
            .first()
            .copied()
            .filter(|&next| doc.contains(c, next));
        let end = match reply {
            Some(r) => doc
                .children(c)
                .find(|&child| doc.contains(child, r))
                .unwrap_or(doc.node(c).end),
            None => doc.node(c).end,
        };
        if end > c + 1 {
            records.push(Record { start: c + 1, end });
        }
    }
    records
}

/// The records of a group across its containers, in page order.
fn place_records(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    containers: &[NodeId],
    nested: &[NodeId],
    tag: &str,
    runs: &HashMap<NodeId, NodeId>,
) -> Vec<Record> {
    let mut all = containers.to_vec();
    all.extend_from_slice(nested);
    all.sort_unstable();
    all.dedup();
    let containers = &all[..];
    let mut by_container: HashMap<NodeId, Vec<(NodeId, NodeId)>> = HashMap::default();
    for (&first, &last) in runs {
        if let Some(p) = doc.node(first).parent {
            by_container.entry(p).or_default().push((first, last));
        }
    }
    for v in by_container.values_mut() {
        v.sort_unstable();
    }
    // The group's first mined runs stand in for a container mining found
    // nothing in (a day's lone commit among days of several).
    let mut protos: Vec<(NodeId, NodeId)> = by_container.values().flatten().copied().collect();
    protos.sort_unstable();
    protos.truncate(MAX_PROTOTYPES);
    // Records that span several siblings (a title row and a metadata row,
    // dt + dd, heading + paragraphs): split at the sibling kind that holds
    // the title.
    let Some(head) = siblings::head_kind(doc, kinds, runs) else {
        let mut records: Vec<Record> = containers
            .iter()
            .flat_map(|&c| widen(doc, c, tag, mined_of(&by_container, c), &protos))
            .collect();
        records.sort_unstable_by_key(|r| r.start);
        return without_interludes(doc, records);
    };
    let mined: Vec<(NodeId, &[(NodeId, NodeId)])> = containers
        .iter()
        .map(|&c| (c, mined_of(&by_container, c)))
        .collect();
    let segmented = siblings::segment(doc, kinds, head, &mined, nested);
    let mut records = Vec::new();
    for ((c, mined), found) in mined.into_iter().zip(segmented) {
        match found {
            Some(found) => records.extend(found),
            None => records.extend(widen(doc, c, tag, mined, &protos)),
        }
    }
    // A subsection's records lie inside its parent container's range.
    records.sort_unstable_by_key(|r| r.start);
    without_interludes(doc, without_odd_runs(doc, records))
}

/// `records` (runs of siblings) without the runs whose elements carry
/// none of the classes that the elements of all the other runs, or all
/// but one, carry: a Q&A page puts an anchor before each `div.answer`,
/// and the anchor before the answers' header (`div#answers-header`, "6
/// Answers" and its sort switch) made one more run of an anchor and a
/// block.
fn without_odd_runs(doc: &Document, records: Vec<Record>) -> Vec<Record> {
    if records.len() < 3 {
        return records;
    }
    let classes_of = |r: &Record| {
        let mut classes: Vec<&str> = Vec::new();
        let mut i = r.start;
        while i < r.end {
            classes.extend(stable_classes(doc, i));
            i = doc.node(i).end.max(i + 1);
        }
        classes.sort_unstable();
        classes.dedup();
        classes
    };
    let sets: Vec<Vec<&str>> = records.iter().map(classes_of).collect();
    let mut counts: HashMap<&str, usize> = HashMap::default();
    for &c in sets.iter().flatten() {
        *counts.entry(c).or_insert(0) += 1;
    }
    let needed = records.len() - 1;
    if !counts.values().any(|&n| n >= needed) {
        return records;
    }
    let shared = |c: &&str| counts.get(c).is_some_and(|&n| n >= needed);
    records
        .into_iter()
        .zip(sets)
        .filter(|(_, set)| set.iter().any(shared))
        .map(|(r, _)| r)
        .collect()
}

/// `records` without their interludes ([`interludes`]: a programme's
/// "Coffee break" rows among its talks): the miner takes such rows in
/// with the talks they stand between, since both start with the same
/// time cell.
fn without_interludes(doc: &Document, records: Vec<Record>) -> Vec<Record> {
    let flags = interludes(doc, &records);
    if !flags.contains(&true) {
        return records;
    }
    records
        .into_iter()
        .zip(flags)
        .filter(|&(_, interlude)| !interlude)
        .map(|(r, _)| r)
        .collect()
}

/// The mined runs `(first, last)` under container `c`, in order.
fn mined_of(
    by_container: &HashMap<NodeId, Vec<(NodeId, NodeId)>>,
    c: NodeId,
) -> &[(NodeId, NodeId)] {
    by_container.get(&c).map(Vec::as_slice).unwrap_or(&[])
}

/// A table row made only of header cells.
fn is_header_row(doc: &Document, id: NodeId) -> bool {
    doc.is_tag(id, "tr") && {
        let cells: Vec<NodeId> = doc
            .children(id)
            .filter(|&c| doc.element(c).is_some())
            .collect();
        !cells.is_empty() && cells.iter().all(|&c| doc.is_tag(c, "th"))
    }
}

/// Map one instance (token positions `p..p+len`) to a run of whole siblings.
fn instance_run(
    doc: &Document,
    links: &Links,
    seq: &TagSequence,
    cand: &PatternCandidate,
    p: u32,
) -> Run {
    let s = seq.nodes[p as usize];
    let e = seq.nodes[(p + cand.len - 1) as usize];
    let (a, clipped, last) = links.lca_with_children(s, e);
    if a == s {
        Run {
            container: doc.node(s).parent.unwrap_or(0),
            first: s,
            last: s,
        }
    } else {
        // A rotated repeat starts inside one sibling (its last tokens) and
        // runs into the next: the sibling that holds more of the instance's
        // tokens is the record, so a separator row that a rotation clips
        // by one token never becomes one.
        let next = doc.node(clipped).end;
        let first = if clipped != s && next <= last {
            // First token at or after the next sibling (blank text has none;
            // nor has the untokenized rest past MAX_TOKENS).
            let at = links.first_token_from(next);
            let boundary = if (at as usize) < seq.nodes.len() {
                at
            } else {
                p + cand.len
            };
            let in_clipped = u64::from(boundary.saturating_sub(p));
            if in_clipped * 2 <= u64::from(cand.len) {
                next
            } else {
                clipped
            }
        } else {
            clipped
        };
        Run {
            container: a,
            first,
            last,
        }
    }
}

/// Counts of the tag names (text as `None`) in a node range.
type TagBag<'d> = HashMap<Option<&'d Name>, u32>;

/// Bag of tag names (and text) in a node range, for structural similarity.
/// Keyed by the interned names: hashing one reads no string.
fn tag_bag(doc: &Document, start: NodeId, end: NodeId) -> TagBag<'_> {
    let mut bag = HashMap::default();
    for n in &doc.nodes[start as usize..end as usize] {
        let k = match &n.data {
            NodeData::Element(e) => Some(&e.name),
            NodeData::Text { blank: false, .. } => None,
            _ => continue,
        };
        *bag.entry(k).or_insert(0) += 1;
    }
    bag
}

fn dice(a: &TagBag, b: &TagBag) -> f64 {
    let inter: u32 = a
        .iter()
        .map(|(k, &x)| x.min(b.get(k).copied().unwrap_or(0)))
        .sum();
    let total: u32 = a.values().sum::<u32>() + b.values().sum::<u32>();
    if total == 0 {
        0.0
    } else {
        2.0 * f64::from(inter) / f64::from(total)
    }
}

/// Single-sibling records of one container: every child with the group's
/// root tag (and a class all mined roots share) that structurally
/// resembles the mined records (`mined`: runs, first → last, sorted). A
/// container without mined runs is judged against the group's (`protos`,
/// see [`alike_members`]).
fn widen(
    doc: &Document,
    container: NodeId,
    tag: &str,
    mined: &[(NodeId, NodeId)],
    protos: &[(NodeId, NodeId)],
) -> Vec<Record> {
    if mined.is_empty() {
        return alike_members(doc, container, tag, protos);
    }
    // The miner saw only the first MAX_CHILDREN children (see `sequence`);
    // widening stops there too, and lookups are hashed, so a container
    // of a million items costs what one of two thousand does.
    let classes = |id: NodeId| stable_classes(doc, id);
    // Class names the mined roots share: a member must carry one of them
    // (keeps an intro `div` out of a list of `div.post`). Only names that
    // say what an element is count: zebra rows (`row-odd`, `row-even`)
    // are one kind.
    let shared = shared_classes(doc, mined);
    let members: Vec<NodeId> = doc
        .children(container)
        .take(crate::extract::sequence::MAX_CHILDREN as usize)
        .filter_map(|c| match doc.is_tag(c, tag) {
            true => (!is_header_row(doc, c)).then_some(c),
            false => labelled_member(doc, c, tag, &shared),
        })
        .collect();
    // A root with none of them, among three or more that have them, is an
    // odd one (a banner between hotel cards that a rotated repeat started
    // in): it stays only if it resembles the records, like any member.
    let root_set: rustc_hash::FxHashSet<NodeId> = mined
        .iter()
        .map(|m| m.0)
        .filter(|&r| shared.is_empty() || stable_classes(doc, r).any(|c| shared.contains(&c)))
        .collect();
    let all: Vec<Record> = members
        .into_iter()
        .filter(|&m| {
            root_set.contains(&m)
                || shared.is_empty()
                || 2 * classes(m).filter(|c| shared.contains(c)).count() >= shared.len()
        })
        .map(|m| Record {
            start: m,
            end: doc.node(m).end,
        })
        .collect();
    let mined: Vec<&Record> = all.iter().filter(|r| root_set.contains(&r.start)).collect();
    if mined.is_empty() {
        return Vec::new();
    }
    // Prototypes: the first mined records (enough to show the variants;
    // comparing every member with every mined root would be quadratic).
    let bags: Vec<TagBag> = mined
        .iter()
        .take(MAX_PROTOTYPES)
        .map(|r| tag_bag(doc, r.start, r.end))
        .collect();
    // Rule 3 holds for widened members too: when the mined records all
    // link somewhere, a member without a link (a separator row, an e-mail
    // alert form between jobs) is not a record, unless it is of their
    // kind by every class they share and says something (an upcoming
    // meeting without its agenda yet, a notice without a file).
    let roots_link = mined.iter().all(|r| has_link(doc, r));
    let of_their_kind = |r: &Record| {
        !shared.is_empty() && carries_all(doc, r.start, &shared) && says_something(doc, r)
    };
    all.iter()
        .filter(|r| {
            root_set.contains(&r.start) || {
                let bag = tag_bag(doc, r.start, r.end);
                bags.iter().map(|b| dice(&bag, b)).fold(0.0, f64::max) >= WIDEN_SIMILARITY
                    && (!roots_link || has_link(doc, r) || of_their_kind(r))
            }
        })
        .copied()
        .collect()
}

/// Longest label beside a member in its wrapper (bytes).
const MAX_MEMBER_LABEL_BYTES: usize = 40;

/// The member of the records' kind (tag `tag`, every class of `shared`)
/// that `wrapper` holds with nothing else but short labels without links:
/// a featured card set apart in a `div` beside its "Featured" label,
/// among the cards it is one of.
fn labelled_member(doc: &Document, wrapper: NodeId, tag: &str, shared: &[&str]) -> Option<NodeId> {
    if shared.is_empty() {
        return None;
    }
    let mut member = None;
    for c in doc.children(wrapper).filter(|&c| doc.element(c).is_some()) {
        let of_kind = doc.is_tag(c, tag) && carries_all(doc, c, shared);
        if of_kind && member.is_none() {
            member = Some(c);
        } else if of_kind
            || doc.text_bytes(c) > MAX_MEMBER_LABEL_BYTES
            || (c..doc.node(c).end).any(|i| doc.is_tag(i, "a"))
        {
            return None;
        }
    }
    member
}

/// True when element `id` carries every class of `shared`.
fn carries_all(doc: &Document, id: NodeId, shared: &[&str]) -> bool {
    shared
        .iter()
        .all(|s| stable_classes(doc, id).any(|c| c == *s))
}

/// Fewest words a record without a link shows among records that link.
const MIN_LINKLESS_WORDS: usize = 3;

/// True when `r` shows at least [`MIN_LINKLESS_WORDS`] words.
fn says_something(doc: &Document, r: &Record) -> bool {
    let mut words = 0;
    doc.text(r.start).split_whitespace().any(|w| {
        words += usize::from(w.chars().any(char::is_alphabetic));
        words >= MIN_LINKLESS_WORDS
    })
}

/// The class names of the mined roots (`first`, `last`) that all of them
/// carry, or all but one when there are three or more, or all but a sixth
/// of a long list (odd roots, such as the group rows a rotated repeat
/// started in, do not empty the set).
fn shared_classes<'d>(doc: &'d Document, mined: &[(NodeId, NodeId)]) -> Vec<&'d str> {
    let mut counts: HashMap<&str, usize> = HashMap::default();
    let mut own: Vec<&str> = Vec::new();
    for &(r, _) in mined {
        own.clear();
        own.extend(stable_classes(doc, r));
        own.sort_unstable();
        own.dedup();
        for &c in &own {
            *counts.entry(c).or_insert(0) += 1;
        }
    }
    // A tracker's four "New 7" group rows among its 25 issues are odd.
    let n = mined.len();
    let needed = if n >= 3 { (n - 1).min(n * 5 / 6) } else { n };
    counts
        .into_iter()
        .filter(|&(_, n)| n >= needed)
        .map(|(c, _)| c)
        .collect()
}

/// The members of a container mining found no record in that are like the
/// group's records elsewhere (`protos`: their classes and tag bags, as
/// [`widen`] judges members).
fn alike_members(
    doc: &Document,
    container: NodeId,
    tag: &str,
    protos: &[(NodeId, NodeId)],
) -> Vec<Record> {
    let Some(&(first, _)) = protos.first() else {
        return Vec::new();
    };
    let shared: Vec<&str> = stable_classes(doc, first)
        .filter(|c| {
            protos
                .iter()
                .all(|&(r, _)| stable_classes(doc, r).any(|x| x == *c))
        })
        .collect();
    let bags: Vec<TagBag> = protos
        .iter()
        .map(|&(r, _)| tag_bag(doc, r, doc.node(r).end))
        .collect();
    let roots_link = protos.iter().all(|&(r, _)| {
        has_link(
            doc,
            &Record {
                start: r,
                end: doc.node(r).end,
            },
        )
    });
    doc.children(container)
        .take(crate::extract::sequence::MAX_CHILDREN as usize)
        .filter(|&c| doc.is_tag(c, tag) && !is_header_row(doc, c))
        .map(|m| Record {
            start: m,
            end: doc.node(m).end,
        })
        .filter(|r| {
            let classed =
                shared.is_empty() || stable_classes(doc, r.start).any(|c| shared.contains(&c));
            let bag = tag_bag(doc, r.start, r.end);
            classed
                && bags.iter().map(|b| dice(&bag, b)).fold(0.0, f64::max) >= WIDEN_SIMILARITY
                && (!roots_link || has_link(doc, r))
        })
        .collect()
}

/// Every element `keep` takes, as a whole record, in page order: the
/// records tests build by hand.
#[cfg(test)]
pub(crate) fn records_where(doc: &Document, keep: impl Fn(NodeId) -> bool) -> Vec<Record> {
    (0..doc.nodes.len() as NodeId)
        .filter(|&i| keep(i))
        .map(|i| Record {
            start: i,
            end: doc.node(i).end,
        })
        .collect()
}

/// True when the record holds a link with an address.
pub(crate) fn has_link(doc: &Document, r: &Record) -> bool {
    (r.start..r.end)
        .any(|i| doc.is_tag(i, "a") && doc.element(i).and_then(|e| e.attr("href")).is_some())
}

/// Mined records a widened member is compared with (see [`widen`]).
const MAX_PROTOTYPES: usize = 64;

/// A short CSS-like path for display: `body > main > ul.posts`.
pub fn selector(doc: &Document, id: NodeId) -> String {
    let mut parts: Vec<String> = std::iter::once(id)
        .chain(doc.ancestors(id))
        .filter_map(|n| {
            let e = doc.element(n)?;
            if e.name == "html" {
                return None;
            }
            let mut s = e.name.to_string();
            if let Some(idv) = e.attr("id").filter(|v| !v.trim().is_empty()) {
                s.push('#');
                s.push_str(idv.trim());
            } else if let Some(class) = e.attr("class") {
                for c in class.split_whitespace().take(2) {
                    s.push('.');
                    s.push_str(c);
                }
            }
            Some(s)
        })
        .collect();
    parts.reverse();
    if parts.len() > 6 {
        let tail = parts.split_off(parts.len() - 5);
        parts = vec!["…".to_string()];
        parts.extend(tail);
    }
    parts.join(" > ")
}

/// Tests' detection of a whole page: parsed, flattened, mined and
/// detected with the default parameters.
#[cfg(test)]
pub(super) fn detect_html(html: &str) -> (Document, Detection) {
    use crate::extract::patterns::mine;
    let doc = crate::extract::dom::parse(html);
    let seq = crate::extract::sequence::flatten(&doc);
    let params = MiningParams::default();
    let det = detect(&doc, &seq, &mine(&seq, &params), &params);
    (doc, det)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tied_at_one_container_rank_by_selector_in_any_order() {
        let group = |selector: &str, score: f64| RecordGroup {
            container: Some(63),
            records: Vec::new(),
            coverage: 0.0,
            score,
            patterns: Vec::new(),
            dropped: None,
            selector: selector.to_string(),
            thread: false,
            stragglers: Vec::new(),
        };
        let selectors = |groups: &[RecordGroup]| -> Vec<String> {
            groups.iter().map(|g| g.selector.clone()).collect()
        };
        // A text-run group and the rows' group, scored alike at one
        // container (found on real pages): their order was the order
        // they came out of the group map. Element records come first;
        // two element groups go by selector.
        let mut one = vec![
            group("tbody > tr", 0.8),
            group("tbody > ", 0.8),
            group("ul > li", 0.9),
            group("tbody > td", 0.8),
        ];
        let mut other = one.clone();
        other.reverse();
        rank(&mut one);
        rank(&mut other);
        assert_eq!(
            selectors(&one),
            ["ul > li", "tbody > td", "tbody > tr", "tbody > "]
        );
        assert_eq!(selectors(&one), selectors(&other));
    }

    /// Regression (an issue tracker grouped by status): a group row
    /// ("New 7", an expander and "Collapse all") above each status's
    /// issues; a group row the miner started in counted among the roots
    /// whose classes the members must share, so the issue rows (`tr.issue`,
    /// some `tr.issue.child`) shared none and the group rows were records.
    #[test]
    fn issue_rows_under_group_rows_are_one_list_without_the_group_rows() {
        let mut rows = String::new();
        let mut n = 0;
        for (status, count) in [("New", 4), ("In Progress", 5), ("Resolved", 4)] {
            rows.push_str(&format!(
                "<tr class=group><td colspan=4><span class=expander onclick='t(this)'>&nbsp;</span>\
                 {status} <span class=count>{count}</span> <a href='#' class=toggle-all>Collapse all</a></td></tr>"
            ));
            for _ in 0..count {
                let child = if n == 3 { " child" } else { "" };
                rows.push_str(&format!(
                    "<tr class='issue hascontextmenu{child}'><td class=id><a href=/issues/48{n:02}>#48{n:02}</a></td>\
                     <td class=subject><a href=/issues/48{n:02}>Status page shows a stale incident number {n}</a></td>\
                     <td class=assigned><a href=/users/{n}>User {n}</a></td><td class=updated>03/0{d}/2024 02:14 PM</td></tr>",
                    d = 1 + n % 9
                ));
                n += 1;
            }
        }
        let html = format!(
            "<html><body><div id=content><h2>Issues</h2><table class='list issues'><tbody>{rows}</tbody></table></div></body></html>"
        );
        let (doc, det) = detect_html(&html);
        let w = det.winner().expect("the issues");
        assert_eq!(w.records.len(), 13, "{}", w.selector);
        assert!(w.records.iter().all(|r| {
            doc.element(r.start)
                .and_then(|e| e.attr("class"))
                .is_some_and(|c| c.starts_with("issue"))
        }));
    }

    // Reference walks for `lca_with_children`: the ancestor, then each
    // side's child of it, each found on its own.

    /// Lowest common ancestor of two nodes (each counts as its own ancestor).
    fn lca(doc: &Document, mut a: NodeId, mut b: NodeId) -> NodeId {
        while doc.node(a).depth > doc.node(b).depth {
            a = doc.node(a).parent.unwrap_or(0);
        }
        while doc.node(b).depth > doc.node(a).depth {
            b = doc.node(b).parent.unwrap_or(0);
        }
        while a != b {
            a = doc.node(a).parent.unwrap_or(0);
            b = doc.node(b).parent.unwrap_or(0);
        }
        a
    }

    /// The child of `anc` on the path to `desc` (`desc` itself if a child).
    fn child_toward(doc: &Document, anc: NodeId, desc: NodeId) -> NodeId {
        let mut c = desc;
        while let Some(p) = doc.node(c).parent {
            if p == anc {
                return c;
            }
            c = p;
        }
        c
    }

    #[test]
    fn one_walk_finds_the_ancestor_and_the_children_below_it() {
        let doc = parse(
            "<html><body><main><ul><li><a href=/a>A</a><p>x <b>y</b></p></li>\
             <li><div><span>deep <i>er</i></span></div></li></ul>\
             <section><h2>T</h2><ol><li>1</li><li>2 <em>!</em></li></ol></section></main></body></html>",
        );
        let n = doc.nodes.len() as NodeId;
        let links = Links::new(&doc, &flatten(&doc));
        let mut pairs = 0;
        for a in 0..n {
            for b in a + 1..n {
                let (anc, below_a, below_b) = links.lca_with_children(a, b);
                assert_eq!(anc, lca(&doc, a, b), "{a} {b}");
                assert_eq!(below_b, child_toward(&doc, anc, b), "{a} {b}");
                if anc == a {
                    assert_eq!(below_a, a);
                } else {
                    assert_eq!(below_a, child_toward(&doc, anc, a), "{a} {b}");
                    pairs += 1;
                }
            }
        }
        assert!(pairs > 100, "{pairs}");
    }

    /// Each node's first token at or after it is what a binary search over
    /// the tokens' nodes finds (blank text and closing positions have no
    /// token of their own).
    #[test]
    fn first_token_from_a_node_is_the_search_over_the_tokens() {
        let doc = parse(
            "<html><body><ul>\n <li><a href=/a>A</a>  <p>x <b>y</b></p></li>\n\
             <li><div> <span>deep</span> </div></li>\n</ul><p>end</p></body></html>",
        );
        let seq = flatten(&doc);
        let links = Links::new(&doc, &seq);
        for n in 0..doc.nodes.len() as NodeId + 2 {
            let searched = seq.nodes.partition_point(|&t| t < n) as u32;
            assert_eq!(links.first_token_from(n), searched, "node {n}");
        }
    }
    use crate::extract::dom::parse;
    use crate::extract::patterns::mine;
    use crate::extract::sequence::flatten;

    fn titles(html: &str, params: &MiningParams) -> Vec<String> {
        let doc = parse(html);
        let seq = flatten(&doc);
        let mining = mine(&seq, params);
        let det = detect(&doc, &seq, &mining, params);
        det.winner()
            .map(|g| {
                g.records
                    .iter()
                    .map(|r| doc.text_of_range(r.start, r.end))
                    .collect()
            })
            .unwrap_or_default()
    }

    const NAV: &str = "<nav><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li>\
        <li><a href='/b'>Blog</a></li><li><a href='/c'>Contact</a></li><li><a href='/d'>Jobs</a></li></ul></nav>";

    /// Regression (a forum's thread list): the sticky threads sit in an
    /// `ol#stickies` of their own right above the `ol#threads`, in the
    /// same markup; they were left out. A bar of links beside the list,
    /// its item of the threads' class but not made like them, stays out.
    #[test]
    fn a_lists_sticky_part_in_its_own_container_beside_it_is_read_with_it() {
        let thread = |class: &str, n: usize| {
            format!(
                "<li class='threadbit {class}' id=thread_{n}><div class=inner><h3 class=threadtitle>\
                 <a class=title href='showthread.php?{n}'>Thread number {n} about hand planes</a></h3>\
                 <div class=author>Started by <a href='member.php?{n}'>user{n}</a>, 03-0{}-2024</div></div>\
                 <ul class=threadstats><li>Replies: {n}</li><li>Views: 1,034</li></ul></li>",
                n % 9 + 1
            )
        };
        let stickies: String = [thread("hot lock", 1), thread("hot", 2)].concat();
        let threads: String = (3..12)
            .map(|n| thread(if n % 2 == 0 { "new" } else { "" }, n))
            .collect();
        let html = format!(
            "<body>{NAV}<div id=threadlist><ol id=stickies class=stickies>{stickies}</ol>\
             <ol id=threads class=threads>{threads}</ol><ol class=tabs><li class='threadbit tab'>\
             <a href='?sort=new'>New</a> <a href='?sort=top'>Top</a></li></ol></div></body>"
        );
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 11, "{got:?}");
        assert!(got[0].starts_with("Thread number 1 about"), "{got:?}");
        assert!(got[10].starts_with("Thread number 11 about"), "{got:?}");
        assert!(got[2].starts_with("Thread number 3 about"), "{got:?}");
    }

    /// Regression: a department's sub-team, a section nested in the
    /// department's section with its own heading and openings, was left out
    /// of the job board (its openings lost with it).
    #[test]
    fn a_section_nested_in_a_section_of_the_list_keeps_its_records() {
        let opening = |id: usize, title: &str| {
            format!(
                "<div class=opening><a href='/jobs/open?gh_jid={id}'>{title}</a><br>\
                 <span class=location>Berlin, Germany</span></div>"
            )
        };
        let mut html = String::from("<body><main><div id=board>");
        let mut id = 0;
        for (dept, n) in [("Engineering", 3), ("Design", 2), ("Sales", 3)] {
            html.push_str(&format!("<section class=level-0><h3>{dept}</h3>"));
            for i in 0..n {
                id += 1;
                html.push_str(&opening(id, &format!("{dept} role number {i}")));
            }
            if dept == "Engineering" {
                html.push_str("<section class='child level-1'><h4>Data Platform</h4>");
                html.push_str(&opening(100, "Senior Data Engineer"));
                html.push_str(&opening(101, "Machine Learning Engineer"));
                html.push_str("</section>");
            }
            html.push_str("</section>");
        }
        html.push_str("</div></main></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 10, "{got:?}");
        let at = got
            .iter()
            .position(|t| t.starts_with("Senior Data Engineer"));
        assert_eq!(at, Some(3), "{got:?}");
    }

    /// Regression (a language's proposal index): tables of striped rows
    /// (`tr.row-even`, `tr.row-odd`); in a table of three rows, the one
    /// `row-odd` row lacked the class the two others share and was
    /// dropped. Zebra stripes say where a row falls, not what it is.
    #[test]
    fn every_striped_row_of_a_short_table_is_a_record() {
        let mut html = String::from("<body><main>");
        let mut n = 0;
        for rows in [5, 3, 4] {
            html.push_str("<section><h3>Category</h3><table><tbody>");
            for i in 0..rows {
                n += 1;
                let stripe = if i % 2 == 0 { "row-even" } else { "row-odd" };
                html.push_str(&format!(
                    "<tr class={stripe}><td><abbr>SF</abbr></td><td><a href='/mep-{n}/'>Proposal number {n}</a></td>\
                     <td>Pike, Novak</td></tr>"
                ));
            }
            html.push_str("</tbody></table></section>");
        }
        html.push_str("</main></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 12, "{got:?}");
    }

    /// Regression: a conference programme has sections of sections (days
    /// holding sessions holding papers). Only the first day's papers were
    /// taken, and a day with a single session (beside a keynote) was its
    /// own group.
    #[test]
    fn the_lists_of_sections_of_sections_join() {
        let paper = |id: usize| {
            format!(
                "<li class=paper><a class=paper-title href='/papers/p{id}/'>Paper number {id} on storage</a>\
                 <div class=authors>A. Author <span>(Lab {id})</span></div></li>"
            )
        };
        let mut html = String::from("<body><main class=program>");
        let mut id = 0;
        for (day, sessions) in [("tue", [3, 2].as_slice()), ("wed", &[2, 3]), ("thu", &[4])] {
            html.push_str(&format!("<section class=day id={day}><h2>Day {day}</h2>"));
            for (s, &n) in sessions.iter().enumerate() {
                html.push_str(&format!(
                    "<section class=session id={day}-{s}><h3>Session {day} {s}</h3><ul class=papers>"
                ));
                for _ in 0..n {
                    id += 1;
                    html.push_str(&paper(id));
                }
                html.push_str("</ul></section>");
            }
            if day == "thu" {
                html.push_str(
                    "<div class=keynote><h3>Keynote</h3><a href='/keynotes/k1'>Abstract and bio</a></div>",
                );
            }
            html.push_str("</section>");
        }
        html.push_str("</main></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), id, "{got:?}");
        assert!(got[id - 1].starts_with("Paper number 14"), "{got:?}");
    }

    /// Regression (a course catalogue): each department is a heading, a
    /// line of its own links and a table of courses. The departments won
    /// as records, each holding its table, because the walk up from a
    /// table's rows met the table (beside the department's links) before
    /// the departments, and stopped.
    #[test]
    fn the_tables_of_headed_sections_join() {
        let mut html = String::from("<body><main class=catalogue>");
        let mut id = 0;
        for (dept, n) in [("arch", 4), ("clas", 5), ("engl", 6), ("phil", 3)] {
            html.push_str(&format!(
                "<section class=dept id={dept}><h2><a href='/{dept}/'>Department of {dept}</a></h2>\
                 <p class=meta>{n} courses · <a href='/{dept}/study/'>Department study pages</a></p>\
                 <table class=courses><thead><tr><th>Code</th><th>Title</th><th>Credits</th></tr>\
                 </thead><tbody>"
            ));
            for _ in 0..n {
                id += 1;
                html.push_str(&format!(
                    "<tr class=course><td><a href='/courses/{dept}{id}/'>{dept}{id}</a></td>\
                     <td><a href='/courses/{dept}{id}/'>Course number {id} of the catalogue</a>\
                     <p class=summary>What the course covers, week by week.</p></td><td>20</td></tr>"
                ));
            }
            html.push_str("</tbody></table><p><a href='#top'>Back to top</a></p></section>");
        }
        html.push_str("</main></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), id, "{got:?}");
        assert!(got[0].contains("Course number 1 "), "{got:?}");
    }

    /// Regression (hotel search results): a banner between two cards,
    /// where a rotated repeat started, was a mined root, so the roots
    /// shared no class and the banner became a record.
    #[test]
    fn an_odd_mined_root_must_resemble_the_records() {
        let mut html = String::from("<body><div class=list>");
        for i in 0..6 {
            html.push_str(&format!(
                "<div class=card><a href='/hotel/{i}'><img src='/p/{i}.jpg' width=200 height=200></a>\
                 <h3><a href='/hotel/{i}'>Hotel number {i}</a></h3><p class=desc>Rooms over the \
                 river, breakfast included.</p><span class=price>€{i}9</span></div>"
            ));
            if i == 2 {
                html.push_str(
                    "<div class=banner><p>Save 10%</p><p>Sign in to see discounts.</p>\
                     <a href='/sign-in'>Sign in</a> <a href='/register'>Register</a></div>",
                );
            }
        }
        html.push_str("</div></body>");
        let doc = parse(&html);
        let cards: Vec<NodeId> = (0..doc.nodes.len() as NodeId)
            .filter(|&i| {
                doc.element(i)
                    .and_then(|e| e.attr("class"))
                    .is_some_and(|c| c == "card" || c == "banner")
            })
            .collect();
        let container = doc.node(cards[0]).parent.unwrap();
        let mined: Vec<(NodeId, NodeId)> = cards.iter().map(|&c| (c, c)).collect();
        let got: Vec<NodeId> = widen(&doc, container, "div", &mined, &[])
            .iter()
            .map(|r| r.start)
            .collect();
        let banner = cards[3];
        assert_eq!(got.len(), 6, "{got:?}");
        assert!(!got.contains(&banner));
    }

    /// Two posts with linked headings beat a sidebar of five links (Rule 1
    /// alone would drop them: two is below `min_instances`).
    #[test]
    fn two_posts_beat_the_sidebar() {
        let mut html = String::from("<body><main>");
        for (i, t) in ["Sourdough with a sulky starter", "Hello world, and why"]
            .iter()
            .enumerate()
        {
            html.push_str(&format!(
                "<article class=post><h2><a href='/p/{i}'>{t}</a></h2>\
                 <p>A first paragraph of the post that says what it is about.</p></article>"
            ));
        }
        html.push_str("</main><aside><ul>");
        for w in [
            "Baking",
            "Batch cooking",
            "Lunchboxes",
            "Archives",
            "Log in",
        ] {
            html.push_str(&format!("<li><a href='/c/{w}'>{w}</a></li>"));
        }
        html.push_str("</ul></aside></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].starts_with("Sourdough"), "{got:?}");
    }

    /// Regression: a section holding a single `dt` + `dd` pair (the last
    /// day of a listing split by day) lost its `dd`: with one head, its
    /// own container shows no record shape, so it now takes the shape the
    /// group's other sections show.
    #[test]
    fn a_lone_pair_in_its_section_keeps_its_second_half() {
        let mut html = String::from("<body><div id=days>");
        let mut n = 0;
        for (day, count) in [
            ("8 March 2024", 4),
            ("7 March 2024", 3),
            ("6 March 2024", 1),
        ] {
            html.push_str(&format!("<h3>{day}</h3><dl>"));
            for _ in 0..count {
                n += 1;
                html.push_str(&format!(
                    "<dt>[{n}] <a href='/abs/{n}'>id:{n}</a> [<a href='/pdf/{n}'>pdf</a>]</dt>\
                     <dd><div class=title><a href='/abs/{n}'>Paper number {n} on the soil</a></div>\
                     <div class=authors>Authors: <a href='/a/{n}'>Author {n}</a></div></dd>"
                ));
            }
            html.push_str("</dl>");
        }
        html.push_str("</div></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 8, "{got:?}");
        for (i, text) in got.iter().enumerate() {
            let n = i + 1;
            assert!(text.starts_with(&format!("[{n}] id:{n}")), "{got:?}");
            assert!(text.ends_with(&format!("Author {n}")), "{got:?}");
        }
    }

    /// Linked headings in page chrome are never a short list.
    #[test]
    fn two_linked_headings_in_a_nav_are_not_a_short_list() {
        let html = "<body><nav><div class=c><h3><a href='/a'>Our products and services</a></h3></div>\
            <div class=c><h3><a href='/b'>About the company and team</a></h3></div></nav>\
            <main><p>Plain prose about the company, long enough to be the page.</p></main></body>";
        assert!(titles(html, &MiningParams::default()).is_empty());
    }

    /// Replies nested in copies of the outer listing: every comment is a
    /// record of its own, without the replies inside it.
    #[test]
    fn nested_listings_split_into_one_record_per_comment() {
        fn comment(id: usize, text: &str, replies: &str) -> String {
            format!(
                "<div class='thing comment' id=t{id}><div class=entry><p class=tagline>\
                 <a href='/u/{id}'>user{id}</a> <time>2024-03-0{id}</time></p>\
                 <div class=md><p>{text}</p></div><a href='/c/{id}'>permalink</a></div>\
                 <div class=child><div class=listing>{replies}</div></div></div>"
            )
        }
        let inner = comment(3, "A reply to the second comment, with its own point.", "");
        let deep = comment(
            2,
            "The second comment answers the first one at length.",
            &inner,
        );
        let html = format!(
            "<body><div class=listing>{}{}</div></body>",
            comment(
                1,
                "The first comment says something about studded tyres.",
                &deep
            ),
            comment(
                4,
                "A fourth comment, at the top level, with no replies.",
                ""
            )
        );
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(
            got[0].contains("first comment") && !got[0].contains("second"),
            "{got:?}"
        );
        assert!(got[2].contains("reply to the second"), "{got:?}");
    }

    #[test]
    fn variant_records_are_widened_and_nav_loses() {
        let mut html = format!("<body>{NAV}<div class=list>");
        for i in 0..8 {
            let img = if i % 3 == 0 {
                "<a href='/x'><img src='t.jpg'></a>"
            } else {
                ""
            };
            let badge = if i == 4 {
                "<span class=badge>New</span>"
            } else {
                ""
            };
            html.push_str(&format!(
                "<article>{img}<h3><a href='/p/{i}'>A reasonably long headline number {i}</a>{badge}</h3>\
                 <p>Summary text of story {i} that runs on for a while.</p><time>2024-03-0{}</time></article>",
                i + 1
            ));
        }
        html.push_str("</div></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 8, "{got:?}");
        assert!(got[4].contains("headline number 4") && got[4].contains("New"));
    }

    /// Regression (a scholarly search's results): a block of author
    /// profiles above the results shares only the first of their three
    /// classes (`div.gs_r.gs_pfl` beside `div.gs_r.gs_or.gs_scl`); it was
    /// widened into the list as its first record.
    #[test]
    fn a_sibling_sharing_few_of_the_records_classes_is_not_widened_in() {
        let mut html = format!(
            "<body>{NAV}<div id=results><div class='gs_r gs_pfl'><h3 class=gs_rt>\
             <a href='/citations?q=roofs'>User profiles for green roofs</a></h3><table><tr><td>\
             <a href='/citations?user=L'><img src=/avatar.png></a></td><td><h4>\
             <a href='/citations?user=L'>Lena Okonkwo</a></h4><div>Professor of Building Physics</div>\
             </td></tr></table></div>"
        );
        for i in 0..6 {
            html.push_str(&format!(
                "<div class='gs_r gs_or gs_scl'><div class=gs_ri><h3 class=gs_rt>\
                 <a href='https://journal.example/a/{i}'>Green roof paper number {i} on cooling</a></h3>\
                 <div class=gs_a>A Author - 2019</div>\
                 <div class=gs_rs>What the paper found about roofs number {i}.</div></div></div>"
            ));
        }
        html.push_str("</div></body>");
        assert_six_records_holding(&html, "Green roof paper");
    }

    #[test]
    fn paper_mode_finds_exact_repeats() {
        let mut html = format!("<body>{NAV}<ul class=posts>");
        for i in 0..6 {
            html.push_str(&format!(
                "<li><a href='/p/{i}'>Post title {i}</a><span class=date>2024-01-0{}</span></li>",
                i + 1
            ));
        }
        html.push_str("</ul></body>");
        let params = MiningParams {
            mode: Mode::Paper,
            ..MiningParams::default()
        };
        let got = titles(&html, &params);
        assert_eq!(got.len(), 6, "{got:?}");
        assert!(got.iter().all(|t| t.starts_with("Post title")));
    }

    /// Regression: on lukesmith.xyz a tag cloud `ul#tagcloud` and the
    /// article `ul` sat side by side and were merged as "grid rows".
    #[test]
    fn sibling_lists_with_own_ids_are_not_merged_as_grid_rows() {
        let mut html = String::from("<body><article><ul id=tagcloud>");
        for t in [
            "Crypto", "Linux", "Politics", "Science", "Software", "Tutorial",
        ] {
            html.push_str(&format!("<li><a href='/tags/{t}'>{t}</a></li>"));
        }
        html.push_str("</ul><h2>Articles</h2><ul>");
        for i in 0..6 {
            html.push_str(&format!(
                "<li><time datetime='2021-0{0}-01'>2021-0{0}-01</time> <a href='/articles/{0}/'>An article about subject number {0}</a></li>",
                i + 1
            ));
        }
        html.push_str("</ul></article></body>");
        assert_six_records_holding(&html, "An article about");
    }

    /// The page's records are six, each holding `words`.
    fn assert_six_records_holding(html: &str, words: &str) {
        let got = titles(html, &MiningParams::default());
        assert_eq!(got.len(), 6, "{got:?}");
        assert!(got.iter().all(|t| t.contains(words)), "{got:?}");
    }

    /// Regression (a council's meetings table): the upcoming meeting,
    /// whose agenda is "Not yet posted", was left out because the other
    /// rows link and it does not. A member of the rows' kind by every
    /// class they share is a record, link or not; a linkless row of
    /// another kind (the section's caption row) is still none.
    #[test]
    fn a_row_of_the_records_kind_without_a_link_is_a_record() {
        let mut html = String::from(
            "<body><table><tbody><tr class=group><td colspan=3>Upcoming and recent meetings</td></tr>",
        );
        html.push_str("<tr class=meeting-row><td>City Council Regular Meeting</td><td>May 7, 2024 6:00 PM</td><td>Not yet posted</td></tr>");
        for (i, name) in [
            "Planning Commission",
            "Parks Board",
            "Zoning Board",
            "Work Session",
            "Library Board",
        ]
        .iter()
        .enumerate()
        {
            html.push_str(&format!(
                "<tr class=meeting-row><td>{name}</td><td>April {}, 2024 7:00 PM</td><td><a href='/agenda/{i}'>Agenda</a> <a href='/packet/{i}'>Packet</a></td></tr>",
                24 - i
            ));
        }
        html.push_str("</tbody></table></body>");
        let (doc, det) = detect_html(&html);
        let winner = det.winner().expect("a winner");
        let firsts: Vec<String> = winner
            .records
            .iter()
            .map(|r| doc.text(r.start).trim().to_string())
            .collect();
        assert_eq!(firsts.len(), 6, "{firsts:?}");
        assert!(
            firsts[0].starts_with("City Council Regular Meeting"),
            "{firsts:?}"
        );
    }

    /// Regression (an obituaries list): the featured card, set apart in a
    /// `div` with its "Featured Obituary" label among the cards, was left
    /// out. A wrapper holding one member of the records' kind and short
    /// labels is that member's place in the list; a wrapper with links of
    /// its own (a promotion) is not.
    #[test]
    fn a_card_wrapped_with_its_label_among_the_cards_is_a_record() {
        let card = |i: usize| {
            format!(
                "<article class=obit-card><h3><a href='/obituaries/{i}'>Person number {i} Lastname</a></h3>\
                 <p class=years>1931 – 2024</p><p>Published on March {i}, 2024</p><p>Services at the chapel.</p></article>"
            )
        };
        let mut html = String::from("<body><main><div class=obits>");
        for i in 1..4 {
            html.push_str(&card(i));
        }
        html.push_str(&format!(
            "<div class=featured-wrap><span class=label>Featured Obituary</span>{}</div>",
            card(4)
        ));
        html.push_str(&format!(
            "<div class=promo><a href='/plan'>Plan a service</a>{}</div>",
            card(9)
        ));
        for i in 5..8 {
            html.push_str(&card(i));
        }
        html.push_str("</div></main></body>");
        let got = titles(&html, &MiningParams::default());
        let people: Vec<&str> = got
            .iter()
            .filter_map(|t| t.split_whitespace().nth(2))
            .collect();
        assert_eq!(people, ["1", "2", "3", "4", "5", "6", "7"], "{got:?}");
    }

    /// Regression: a phpBB separator row (`<tr class=sep>`, no link) was
    /// taken in because a rotated repeat started at its last text token.
    #[test]
    fn rows_clipped_by_a_rotated_repeat_are_not_records() {
        let mut html = String::from("<body><table><tbody>");
        for i in 0..2 {
            html.push_str(&format!("<tr class='row sticky'><td><a href='/t/{i}'>Sticky topic {i} with a long title</a><br>by <a href='/u/1'>mod</a></td><td>3</td></tr>"));
        }
        html.push_str("<tr class=sep><td colspan=2><h3>Topics</h3></td></tr>");
        for i in 2..9 {
            html.push_str(&format!("<tr class='row'><td><a href='/t/{i}'>Ordinary topic {i} with a long title</a><br>by <a href='/u/{i}'>user{i}</a></td><td>{i}</td></tr>"));
        }
        html.push_str("</tbody></table></body>");
        let got = titles(&html, &MiningParams::default());
        assert_eq!(got.len(), 9, "{got:?}");
        assert!(!got.iter().any(|t| t == "Topics"), "{got:?}");
    }

    #[test]
    fn page_without_repeats_has_no_winner() {
        let got = titles(
            "<body><h1>About us</h1><p>We are a small team.</p><p>Write to <a href='/c'>us</a>.</p></body>",
            &MiningParams::default(),
        );
        assert!(got.is_empty());
    }
}
