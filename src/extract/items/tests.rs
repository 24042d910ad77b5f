//! Tests of record → item: titles, links, dates, posts, interruptions.

use super::*;
use crate::extract::records::records_where;

fn ctx() -> DateContext {
    DateContext::utc_at(2024, 3, 10, 12)
}

#[test]
fn action_texts_are_written_as_they_are_compared() {
    for a in ACTION_TEXTS.iter().chain(MORE_TEXTS) {
        let trimmed = a.trim_matches(|c: char| !c.is_alphanumeric());
        assert_eq!(*a, trimmed.to_lowercase(), "{a:?}");
    }
    for t in [
        "More »",
        "more...",
        "  Read more →",
        "(Comments)",
        "続きを読む",
        "187 comments",
    ] {
        assert!(is_action_text(t), "{t}");
    }
    for t in ["More tomatoes", "Reply-all etiquette", "Share prices fall"] {
        assert!(!is_action_text(t), "{t}");
    }
}

fn linked(title: &str, href: &str) -> Item {
    Item {
        link: Url::parse(href).ok(),
        guid: href.to_owned(),
        ..Item::bare(title)
    }
}

#[test]
fn a_view_all_link_above_the_posts_is_not_a_record() {
    let posts = [
        linked("Jenny joins the team", "https://x.example/blog/jenny/"),
        linked("Our public roadmap", "https://x.example/blog/roadmap/"),
        linked("Jupyter Book 2", "https://x.example/blog/jb2/"),
    ];
    let all = linked("View all blog posts", "https://x.example/blog/");
    assert!(is_listing_link(&all, &posts));
    // Sections of a site are records when they are the list.
    let sections = [
        linked("Guides", "https://x.example/guides/"),
        linked("Reference", "https://x.example/reference/"),
    ];
    assert!(!is_listing_link(
        &linked("Blog", "https://x.example/blog/"),
        &sections
    ));
    assert!(!is_listing_link(
        &linked("Home", "https://x.example/"),
        &posts
    ));
    // A post that happens to own sub-pages is kept when dated.
    let mut dated = all.clone();
    dated.date = chrono::DateTime::parse_from_rfc3339("2024-03-01T00:00:00Z").ok();
    assert!(!is_listing_link(&dated, &posts));
}

fn item_of(html: &str, selector_tag: &str) -> Item {
    let doc = crate::extract::dom::parse(html);
    let id = (0..doc.nodes.len() as NodeId)
        .find(|&i| doc.is_tag(i, selector_tag))
        .unwrap();
    let rec = Record {
        start: id,
        end: doc.node(id).end,
    };
    let base = base_url(
        &doc,
        &Url::parse("https://news.example.com/world/").unwrap(),
    );
    let plan = plan_titles(&doc, &[rec], &ctx());
    item_from_record(&doc, &rec, &base, &ctx(), &plan)
}

/// The elements of `doc` of class `class`, as records.
fn records_of_class(doc: &Document, class: &str) -> Vec<Record> {
    records_where(doc, |i| {
        doc.element(i).and_then(|e| e.attr("class")) == Some(class)
    })
}

/// The items of the records of `class` in `html`, titled by one plan
/// as a group's are, links resolved against `base`.
fn items_of(html: &str, class: &str, base: &str) -> Vec<Item> {
    let doc = crate::extract::dom::parse(html);
    items_of_records(&doc, &records_of_class(&doc, class), base)
}

/// [`items_of`] the records whose class holds `token` among others.
fn items_of_token(html: &str, token: &str, base: &str) -> Vec<Item> {
    let doc = crate::extract::dom::parse(html);
    let records = records_where(&doc, |i| {
        doc.element(i)
            .and_then(|e| e.attr("class"))
            .is_some_and(|c| c.split_whitespace().any(|t| t == token))
    });
    items_of_records(&doc, &records, base)
}

/// Each item's title and link (`""` for none).
fn titles_and_links(items: &[Item]) -> Vec<(&str, &str)> {
    items
        .iter()
        .map(|it| (it.title.as_str(), it.link.as_ref().map_or("", Url::as_str)))
        .collect()
}

/// [`items_of`] the `<li>` records of `html`, whatever their classes.
fn items_of_lis(html: &str, base: &str) -> Vec<Item> {
    let doc = crate::extract::dom::parse(html);
    items_of_records(&doc, &records_where(&doc, |i| doc.is_tag(i, "li")), base)
}

/// Regression (a Chinese government notice list): titles cut to fit
/// the column ("…") were taken as cut, where each link's `title`
/// attribute holds the whole title.
#[test]
fn a_cut_title_is_completed_by_its_tooltip() {
    let html = "<ul>\
        <li><a href=./202611/t1.html title=\"关于公开征求《澜川市城市道路占用挖掘管理办法（征求意见稿）》意见的公告\">关于公开征求《澜川市城市道路占用挖掘管理办法（征求意…</a><span>[2026-11-17]</span></li>\
        <li><a href=./202611/t2.html title=\"Council approves the new  parking\n rules\">Council approves the new...</a></li>\
        <li><a href=./202611/t3.html title=\"Permalink\">Harbour works begin on Monday…</a></li>\
        <li><a href=./202611/t4.html title=\"关于市民服务中心部分窗口调整办公时间的公告\">关于市民服务中心部分窗口调整办公时间的公告</a></li>\
        </ul>";
    let titles: Vec<String> = items_of_lis(html, "https://www.lanchuan.gov.example/tzgg/")
        .into_iter()
        .map(|i| i.title)
        .collect();
    assert_eq!(
        titles,
        [
            "关于公开征求《澜川市城市道路占用挖掘管理办法（征求意见稿）》意见的公告",
            "Council approves the new parking rules",
            "Harbour works begin on Monday…",
            "关于市民服务中心部分窗口调整办公时间的公告",
        ]
    );
}

/// The first `n` bytes of each item's title, and its link's path.
fn title_starts_and_paths(items: &[Item], n: usize) -> Vec<(&str, &str)> {
    items
        .iter()
        .map(|i| (&i.title[..n], i.link.as_ref().map_or("", |l| l.path())))
        .collect()
}

/// Regression (a XenForo thread): each post heads its poster's card
/// with the name in an `h4` (and the title in an `h5`), so the posts
/// counted as headed: they were titled by their posters' names and
/// linked to their profiles. Headings in a byline name the poster.
/// A short post was titled with the poster's signature after it.
#[test]
fn a_heading_naming_the_poster_does_not_head_the_post() {
    let post = |n: usize, who: &str, text: &str| {
        format!(
            "<article class=message><section class=message-user itemprop=author>\
             <a href=/members/{who}.1{n}/ class=avatar>{who}</a>\
             <h4 class=message-name><a href=/members/{who}.1{n}/ class=username>{who}</a></h4>\
             <h5 class=userTitle>Well-known member</h5></section>\
             <div class=message-main><header><a href=/threads/grinders.4821/post-98{n}>\
             <time datetime=2026-11-1{n}T08:00:00+0000>Nov 1{n}, 2026</time></a> \
             <a href=/threads/grinders.4821/post-98{n}>#{n}</a></header>\
             <div class=bbWrapper>{text}</div></div></article>"
        )
    };
    let long = "at that price you are choosing which compromise you can live with, not \
                which grinder is best, and the stepped ones make you adjust dose instead";
    let short = "This. Learned it the hard way.</div><aside class=message-signature>\
                 <div class=bbWrapper>Varda 48 &gt; Kessler K54 | too many tampers</div></aside><div>";
    let html = [
        post(4, "dialedin", short),
        post(1, "grindnerd", &format!("Honest answer: {long}")),
        post(2, "dialedin", &format!("Agree with this, {long}")),
        post(3, "grindnerd", &format!("Ha, I did consider it: {long}")),
    ]
    .concat();
    let items = items_of(
        &html,
        "message",
        "https://forums.brewline.example/threads/grinders.4821/",
    );
    let got = title_starts_and_paths(&items, 14);
    assert_eq!(
        got,
        [
            ("This. Learned ", "/threads/grinders.4821/post-984"),
            ("Honest answer:", "/threads/grinders.4821/post-981"),
            ("Agree with thi", "/threads/grinders.4821/post-982"),
            ("Ha, I did cons", "/threads/grinders.4821/post-983"),
        ]
    );
    assert_eq!(items[0].title, "This. Learned it the hard way.");
}

/// Regression (a Q&A page): an answer's first dated link is "edited
/// Mar 5, 2024 at 7:47" (its revisions) and the next ones are the
/// timestamps of the comments listed under it; its own address is its
/// "Share" link. Answers were linked to revisions and comments, and a
/// short answer was titled by a comment.
#[test]
fn an_answer_is_linked_by_its_share_link_not_its_edits_or_comments() {
    let answer = |id: u32, text: &str, edited: bool| {
        let edit = if edited {
            format!("<a href=/posts/{id}/revisions>edited Mar 5, 2024 at 7:47</a>")
        } else {
            String::new()
        };
        format!(
            "<div class=answer id=answer-{id}><div class=s-prose><p>{text}</p></div>\
             <div class=post-menu><a href=/a/{id}/1180233 class=js-share-link>Share</a> \
             <a href=/posts/{id}/edit>Improve this answer</a></div>{edit}\
             <div class=user-info>answered <span title='2024-03-04 20:41:09Z'>Mar 4, 2024 at 20:41</span> \
             <a href=/users/11/marta>Marta</a></div>\
             <div class='comments js-comments-container'><ul class=comments-list>\
             <li class=comment id=comment-{id}1><div class=comment-body><span class=comment-copy>This is \
             the right explanation, and the docs for asyncio.gather say so in a footnote that nobody \
             reads until it bites them in production.</span> <a class=comment-user href=/users/7/jb>jb</a> \
             <a class=comment-link href=#comment{id}1_{id}>Mar 5, 2024 at 9:12</a></div></li></ul></div></div>"
        )
    };
    let long = "The gather call is not the one cancelling anything: the timeout wrapper \
                around it is, and it cancels whatever is still pending when it fires.";
    let html = [
        answer(78123552, long, true),
        answer(78124188, long, false),
        answer(
            78127810,
            "It's a bug in Python, you should report it.",
            false,
        ),
    ]
    .concat();
    let items = items_of(
        &html,
        "answer",
        "https://devanswers.example/questions/1/why",
    );
    let got = title_starts_and_paths(&items, 12);
    assert_eq!(
        got,
        [
            ("The gather c", "/a/78123552/1180233"),
            ("The gather c", "/a/78124188/1180233"),
            ("It's a bug i", "/a/78127810/1180233"),
        ]
    );
}

/// Regression (a package's release history): each release is one card
/// link holding a "pre-release" badge, the version and a `<time>`; the
/// card was taken for a timestamp link (it holds a time): every
/// pre-release was titled "pre-release", from the record's first line.
#[test]
fn a_card_link_around_its_date_is_titled_by_what_it_says() {
    let card = |v: &str, badge: &str, day: u32| {
        format!(
            "<div class=release><a class='card release__card' href=/project/t/{v}/>{badge}\
             <p class=release__version>{v}</p><p class=release__version-date>\
             <time datetime=2026-10-{day:02}T23:41:07+0000>Oct {day}, 2026</time></p></a></div>"
        )
    };
    let html = [
        card("3.14.0", "<span class=badge>This version</span>", 19),
        card(
            "3.14.0b1",
            "<span class='badge badge--warning'>pre-release</span>",
            2,
        ),
        card("3.13.4", "", 1),
    ]
    .concat();
    let titles: Vec<String> = items_of(&html, "release", "https://pypi.example/project/t/")
        .into_iter()
        .map(|i| i.title)
        .collect();
    // The date goes, and so does a badge beside a version: "This
    // version" says where the reader stands on the page, not what was
    // released (a label beside a short title that is no version stays).
    assert_eq!(titles, ["3.14.0", "3.14.0b1", "3.13.4"]);
}

/// Regression: a lab's publication list links a paper's title only
/// when the paper has a page; the others are named in a
/// `span.pub-title`, in quotes, and were titled "PDF" or "Code".
#[test]
fn a_citation_without_a_title_link_is_titled_by_its_title_element() {
    let cite = |title: &str, key: &str| {
        format!(
            "<li class=pub><span class=pub-authors>T. Moreau and <strong>J. Okafor</strong>.</span> \
             <span class=pub-title>&ldquo;{title},&rdquo;</span> in <em>Proc. VLDB</em>, 2025. \
             <span class=pub-links>[<a href=/papers/{key}.pdf>PDF</a>] \
             [<a href=https://doi.org/10.14778/{key}>DOI</a>] [<a href=#bib-{key}>BibTeX</a>]</span></li>"
        )
    };
    let html = format!(
        "<ol>{}{}{}</ol>",
        cite(
            "When Indexes Forget: Learned Index Drift Under Skewed Updates",
            "moreau25"
        ),
        cite(
            "&ldquo;It Worked on My Laptop&rdquo;: Reproducibility Pitfalls",
            "okafor24"
        ),
        "<li class=pub>B. Lind. <span class=pub-title>&ldquo;<a href=/pubs/zone-maps/>Zone Maps \
         Revisited</a>,&rdquo;</span> in <em>ICDE</em>, 2025. [<a href=/papers/lind25.pdf>PDF</a>]</li>"
    );
    let items = items_of_lis(&html, "https://lab.example/publications/");
    let got: Vec<(&str, &str)> = items
        .iter()
        .map(|i| (i.title.as_str(), i.link.as_ref().map_or("", |l| l.as_str())))
        .collect();
    assert_eq!(
        got,
        [
            (
                "When Indexes Forget: Learned Index Drift Under Skewed Updates",
                "https://lab.example/papers/moreau25.pdf"
            ),
            (
                "\u{201c}It Worked on My Laptop\u{201d}: Reproducibility Pitfalls",
                "https://lab.example/papers/okafor24.pdf"
            ),
            ("Zone Maps Revisited", "https://lab.example/pubs/zone-maps/"),
        ]
    );
    assert_eq!(unquoted_title("\"Plain quotes.\""), "Plain quotes.");
    assert_eq!(
        unquoted_title("A title, with a comma"),
        "A title, with a comma"
    );
}

/// Regression: a post list hides its author and word count inside the
/// card's link (`display:none`, for search engines), and phpBB hides a
/// mobile-only "Last post by …" line in each topic row: both were read
/// into the title or the summary, which a reader never sees.
#[test]
fn text_the_markup_hides_is_in_no_title_or_summary() {
    let html = "<ul>\
        <li><a href='/blog/write-code'><span>Write code, not too much</span>\
        <span style='display:none'>Brandon Smith</span></a>\
        <div hidden>Last post by sparkyjoe</div><p>Mostly functions, said the author.</p></li>\
        <li><a href='/blog/signatures'><span>My favourite function signature</span>\
        <span style='display: none'>Brandon Smith</span></a>\
        <div hidden>Last post by Ruben</div><p>One that takes a slice.</p></li></ul>";
    let items = items_of_lis(html, "https://blog.example/");
    let got: Vec<(&str, &str)> = items
        .iter()
        .map(|it| (it.title.as_str(), it.summary.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "Write code, not too much",
                "Mostly functions, said the author."
            ),
            ("My favourite function signature", "One that takes a slice."),
        ]
    );
}

/// Regression: WordPress's latest-posts block ends each excerpt with
/// "Read more<span class=screen-reader-text>: Title</span>"; read
/// whole, that link was longer than the title link and titled every
/// post "Read more: …" (8 of 9 on a recipe blog's home page).
/// Screen-reader text still names an icon link that shows nothing.
#[test]
fn screen_reader_text_is_no_part_of_a_title_unless_it_is_all_there_is() {
    let post = |slug: &str, title: &str| {
        format!(
            "<li><a class=wp-block-latest-posts__post-title href='/{slug}/'>{title}</a>\
             <time datetime='2026-11-20T07:00:00-06:00'>November 20, 2026</time>\
             <div class=wp-block-latest-posts__post-excerpt>A weeknight dish with a crisp top. \
             <a class=wp-block-latest-posts__read-more href='/{slug}/'>Read more\
             <span class=screen-reader-text>: {title}</span></a></div></li>"
        )
    };
    let html = format!(
        "<ul>{}{}{}</ul>",
        post("gratin", "Gratin"),
        post("soup", "Soup"),
        post("bars", "Bars")
    );
    let items = items_of_lis(&html, "https://food.example/");
    let titles: Vec<&str> = items.iter().map(|it| it.title.as_str()).collect();
    assert_eq!(titles, ["Gratin", "Soup", "Bars"]);
    assert!(
        items[0].summary.ends_with("crisp top. Read more"),
        "{}",
        items[0].summary
    );
    let doc = crate::extract::dom::parse(
        "<a href='#c1'><svg></svg><span class=sr-only>Permalink</span></a>",
    );
    let a = (0..doc.nodes.len() as NodeId)
        .find(|&i| doc.is_tag(i, "a"))
        .expect("the link");
    assert_eq!(title_text(&doc, a), "Permalink");
}

/// The items of `records`, titled by one plan as a group's are.
fn items_of_records(doc: &Document, records: &[Record], base: &str) -> Vec<Item> {
    let base = Url::parse(base).unwrap();
    let plan = plan_titles(doc, records, &ctx());
    records
        .iter()
        .map(|r| item_from_record(doc, r, &base, &ctx(), &plan))
        .collect()
}

/// A forum post: its number link (`#N`), its author, and its text.
fn post(number: &str, author: &str, text: &str) -> String {
    format!(
        "<div class=post><div class=head>#<a href='/p/{author}{number}'>{number}</a></div>\
         <a class=user href='/u/{author}'>{author}</a><div class=msg>{text}</div></div>"
    )
}

/// Regression: a thread's posts, numbered `#1`, `#2`, ... by a link,
/// were titled by that number ("1", "2"): the number is the post's
/// permalink, and the post is titled by its own text.
#[test]
fn numbered_posts_are_titled_by_their_text_and_linked_by_their_number() {
    let long = "Blade is freshly honed and the mouth is closed up, yet the plane chatters";
    let html = [
        post("1", "turnedleg", long),
        post("2", "oakandiron", &format!("{long} on end grain")),
        post("3", "shavingsfly", &format!("Skew the plane: {long}")),
    ]
    .concat();
    let items = items_of(&html, "post", "https://forum.example/t/48213");
    assert_eq!(items.len(), 3);
    assert!(
        items[0].title.starts_with("Blade is freshly honed"),
        "{}",
        items[0].title
    );
    assert_eq!(
        items[1].link.as_ref().map(Url::as_str),
        Some("https://forum.example/p/oakandiron2")
    );
}

/// Regression (a Discourse topic): a post whose code block holds most
/// of its text was titled by the code, and a post of a short opening
/// line, a quote and a long paragraph by the long paragraph alone.
/// Regression (a XenForo thread): a reply opening with the post it
/// quotes was titled "grindnerd said: …", the other poster's words.
#[test]
fn a_post_is_titled_from_the_start_of_its_own_words() {
    let code = "Coordinator 0x0000 ├─ Plug kitchen 0x31a8 (router, LQI 212) ├─ Plug hallway \
                0x4b90 (router, LQI 187) │ ├─ Lumo door sensor 0x5a1f (end device) └─ Plug \
                office 0x22ee (router, LQI 230)";
    let long = "In my case it is not only the door sensors: a couple of older contact sensors \
                drop as well, always after being idle for about two hours, as if the \
                coordinator forgot its children";
    let html = [
        post(
            "1",
            "ardenvale",
            &format!("<p>Here is the map:</p><pre><code>{code}</code></pre>"),
        ),
        post(
            "2",
            "marlow",
            &format!(
                "<p>Same here.</p><aside class=quote><blockquote><p>Mains-powered \
                      devices are fine</p></blockquote></aside><p>{long}</p>"
            ),
        ),
        post("3", "june", &format!("<p>{long}, and the plugs too.</p>")),
    ]
    .concat();
    let titles: Vec<String> = items_of(&html, "post", "https://forum.example/t/18342")
        .into_iter()
        .map(|it| it.title)
        .collect();
    // The code block it introduces is a program's words, not the
    // poster's: the title stops before it.
    assert_eq!(titles[0], "Here is the map:");
    // What a post quotes is not its own words (a forum's "… said:"
    // block opening a reply was its title).
    assert!(titles[1].starts_with("Same here. In my case"), "{titles:?}");
    assert!(titles[2].starts_with("In my case"), "{titles:?}");
}

/// Regression (a Tildes thread): the stub a deleted comment leaves
/// ("Comment deleted by author" beside its Link and Parent links) was
/// an item; a comment that only mentions deletion, or whose author
/// flair is marked removed, is not a stub.
#[test]
fn a_deleted_comment_stub_is_told_from_comments() {
    let html = "<div class=c><button>−</button><div>[4]</div>\
        <div class=is-comment-deleted>Comment deleted by author</div>\
        <a href='#c1'>Link</a> <a href='#c0'>Parent</a></div>\
        <div class=c><a href='/u/ada'>ada</a> <span class=flair-removed>mod</span>\
        <p>The 21:40 sleeper ran on time all week, and the couchettes were clean.</p></div>\
        <div class=c><a href='/u/bo'>bo</a><p>I deleted my old booking and made a new \
        one: the refund came within a day.</p></div>\
        <div class=c><span class=navs> | <a href='#1'>root</a> | <a href='#2'>parent</a> \
        <a class=togg href='javascript:void(0)'>[–]</a></span>\
        <div class=commtext>[deleted]</div><div class=reply></div></div>\
        <div class=c><a href='/u/cy'>cy</a><div class=commtext>Deleted</div> \
        <p>the whole branch and started over; it built first time.</p></div>";
    let doc = crate::extract::dom::parse(html);
    let stubs: Vec<bool> = records_of_class(&doc, "c")
        .iter()
        .map(|r| is_deleted_stub(&doc, r))
        .collect();
    // Regression (a news board's thread): its stub says "[deleted]" in
    // the class of every comment's text, and was an item.
    assert_eq!(stubs, [true, false, false, true, false]);
    // Regression (the same board's comment table, not told as a thread):
    // a stub that links only places on the page ("#c1") or a script is
    // no entry; a stub linking a page is one only in a thread.
    let entries: Vec<bool> = records_of_class(&doc, "c")
        .iter()
        .map(|r| is_deleted_entry(&doc, r, false))
        .collect();
    assert_eq!(entries, [true, false, false, true, false]);
    let linked = "<div class=c><div class=commtext>[deleted]</div>\
        <a href='/item?id=7'>parent</a></div><div class=c><p>Reply.</p></div>";
    let doc = crate::extract::dom::parse(linked);
    let records = records_of_class(&doc, "c");
    assert!(!is_deleted_entry(&doc, &records[0], false));
    assert!(is_deleted_entry(&doc, &records[0], true));
}

/// Regressions (a Mastodon timeline): a boost, whose booster's name
/// comes first, was linked to the booster; the status's permalink is
/// its timestamp link ("4h", a `<time datetime>`). A status behind a
/// content warning was titled by its folded text: a reader sees the
/// warning, not the "Show more" button or the hidden words.
#[test]
fn a_status_is_linked_by_its_timestamp_and_titled_by_what_shows() {
    let status = |id: &str, prepend: &str, content: &str| {
        format!(
            "<div class=entry>{prepend}<div class=status><a class=time href='https://coast.example/@tern/{id}'>\
             <time datetime='2026-11-21T08:02:10Z'>4h</time></a>\
             <a class=name href='https://coast.example/@tern'>Tern</a>\
             <div class=content>{content}</div></div></div>"
        )
    };
    let prose = "<p>The winter wader count is on Sunday. We need counters for fourteen sectors, \
                 no experience needed.</p>";
    let html = [
        status("1", "", prose),
        status(
            "2",
            "<div class=prepend><a href='https://moor.example/@kes'>Kes</a> boosted</div>",
            prose,
        ),
        status(
            "3",
            "",
            "<p><span class=summary>Long post: notes from the flood consultation</span>\
             <button>Show more</button></p><div class=e-content style='display: none'>\
             <p>Three hours, about sixty people, one very tired consultant, and a car park \
             extension that is still in the scheme.</p></div>",
        ),
    ]
    .concat();
    let items = items_of(&html, "entry", "https://moor.example/@kes");
    let link = |i: usize| items[i].link.as_ref().map(Url::as_str);
    assert_eq!(link(1), Some("https://coast.example/@tern/2"));
    assert_eq!(
        items[2].title,
        "Long post: notes from the flood consultation"
    );
}

/// Regression (a language's proposal index): each row links its number
/// and its title to one page, both `td/p/a.pep`, and every title was
/// the number.
#[test]
fn a_number_beside_a_worded_link_to_the_same_page_is_no_title() {
    let row = |n: &str, title: &str| {
        format!(
            "<tr class=row><td><p><abbr>SF</abbr></p></td>\
             <td><p><a class=pep href='../mep-{n:0>4}/'>{n}</a></p></td>\
             <td><p><a class=pep href='../mep-{n:0>4}/'>{title}</a></p></td><td><p>Pike</p></td></tr>"
        )
    };
    let html = format!(
        "<table><tbody>{}{}{}</tbody></table>",
        row("8", "Style Guide for Marlin Code"),
        row("20", "The Tao of Marlin"),
        row("257", "Docstring Conventions")
    );
    let items = items_of(&html, "row", "https://meps.example/mep-0000/");
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Style Guide for Marlin Code",
            "The Tao of Marlin",
            "Docstring Conventions"
        ]
    );
    assert_eq!(
        items[0].link.as_ref().map(Url::as_str),
        Some("https://meps.example/mep-0008/")
    );
}

/// A blog of mostly untitled posts (photos with a caption, quotes),
/// each linked by its date.
fn tumblr_post(id: &str, date: &str, body: &str) -> String {
    format!(
        "<article class=post><div class=inner>{body}<footer>\
         <a class=post-date href='https://kiln.example/post/{id}'>{date}</a> \
         <a class=notes href='https://kiln.example/post/{id}#notes'>12 notes</a></footer></div></article>"
    )
}

/// Regressions (a Tumblr blog): posts whose permalink says their date
/// were undated (the permalink was read as a title link, whose dates
/// are never the record's); the titled posts among the untitled were
/// titled by their first words; a reblog was titled by the reblogged
/// blog's name; a post that is only a quote was titled by its quote
/// and its source.
#[test]
fn a_blog_of_untitled_posts_is_dated_by_its_permalinks_and_titles_its_titled_ones() {
    let html = [
        tumblr_post(
            "1",
            "Mar 10th, 2024",
            "<div class=body><img src='/k.jpg'><p>Kiln opening, Sunday. Three survivors out of eleven.</p></div>",
        ),
        tumblr_post(
            "2",
            "Mar 8th, 2024",
            "<h2 class=title><a href='https://kiln.example/post/2'>Notes on a celadon that behaves</a></h2>\
             <div class=body><p>Six months and forty-one test tiles later, I have a celadon that does not craze.</p></div>",
        ),
        tumblr_post(
            "3",
            "Mar 5th, 2024",
            "<div class=body><p><a class=tumblr_blog href='https://grit.example/post/9'>glazeandgrit</a>:</p>\
             <blockquote><p>Reminder that wedging is not optional.</p></blockquote>\
             <p>Said it louder for the Tuesday night class.</p></div>",
        ),
        tumblr_post(
            "4",
            "Mar 2nd, 2024",
            "<div class=body><div class=quote-wrapper><blockquote><p>Clay remembers everything you do to it.</p></blockquote>\
             <p class=source>— Ida Merriwether</p></div></div>",
        ),
        tumblr_post(
            "5",
            "Feb 25th, 2024",
            "<div class=body><p>Anyone near Leeds selling a banding wheel? Asking for six students.</p></div>",
        ),
    ]
    .concat();
    let items = items_of(&html, "post", "https://kiln.example/");
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Kiln opening, Sunday. Three survivors out of eleven.",
            "Notes on a celadon that behaves",
            "Said it louder for the Tuesday night class.",
            "Clay remembers everything you do to it.",
            "Anyone near Leeds selling a banding wheel? Asking for six students.",
        ]
    );
    let days: Vec<String> = items
        .iter()
        .map(|i| {
            i.date
                .map(|d| d.date_naive().to_string())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        days,
        [
            "2024-03-10",
            "2024-03-08",
            "2024-03-05",
            "2024-03-02",
            "2024-02-25"
        ]
    );
}

/// The lead-in line of a quotation is the poster's own when it says
/// something of their own ("One thing I'd add about the berths:"), and
/// the quotation's when it names whose words follow.
#[test]
fn an_attribution_line_belongs_to_its_quotation() {
    let doc = crate::extract::dom::parse(
        "<div><p id=a><a href='/u/grit'>glazeandgrit</a>:</p><blockquote>q</blockquote>\
         <p id=b>On 5 March, Ida wrote:</p> <blockquote>q</blockquote>\
         <p id=c>One thing I'd add about the berths:</p><blockquote>q</blockquote>\
         <p id=d>glazeandgrit:</p><p>not a quote</p></div>",
    );
    let by_id = |id: &str| {
        (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.element(i).and_then(|e| e.attr("id")) == Some(id))
            .unwrap()
    };
    assert!(is_attribution(&doc, by_id("a")));
    assert!(is_attribution(&doc, by_id("b")));
    assert!(!is_attribution(&doc, by_id("c")));
    assert!(!is_attribution(&doc, by_id("d")));
}

/// Regression (a Blogger home page): a post without a title was titled
/// by its author's profile link, its only other link being the "2:05
/// PM" that links the post.
#[test]
fn an_untitled_post_among_titled_ones_is_titled_by_its_words() {
    let post = |title: &str, slug: &str, body: &str, time: &str| {
        format!(
            "<div class=post>{title}<div class=body>{body}</div><div class=footer>Posted by \
             <a class=g-profile href='https://blogger.example/profile/1' rel=author>Maren Oakley</a> at \
             <a class=timestamp-link href='https://kitchen.example/2025/03/{slug}.html' rel=bookmark>{time}</a></div></div>"
        )
    };
    let titled = |t: &str, slug: &str| {
        format!(
            "<h3 class=post-title><a href='https://kitchen.example/2025/03/{slug}.html'>{t}</a></h3>"
        )
    };
    let html = [
        post(
            "",
            "blog-post",
            "Snow on the daffodils this morning. Spring, apparently, is negotiable.",
            "2:05 PM",
        ),
        post(
            &titled("Sourdough discard crackers", "crackers"),
            "crackers",
            "<p>Attempt number four: rosemary and salt.</p>",
            "9:14 AM",
        ),
        post(
            &titled("Seed order arrived", "seeds"),
            "seeds",
            "<p>The seed order came and I regret nothing.</p>",
            "7:30 PM",
        ),
    ]
    .concat();
    let items = items_of(&html, "post", "https://kitchen.example/");
    assert_eq!(
        items[0].title,
        "Snow on the daffodils this morning. Spring, apparently, is negotiable."
    );
    assert_eq!(
        items[0].link.as_ref().map(Url::as_str),
        Some("https://kitchen.example/2025/03/blog-post.html")
    );
    assert_eq!(items[1].title, "Sourdough discard crackers");
    for t in ["2:05 PM", "14:02", "9:14:07 a.m."] {
        assert!(is_clock_time(t), "{t}");
    }
    for t in ["2:5 PM", "3.14", "v1:20", "12:00 noon", "2024"] {
        assert!(!is_clock_time(t), "{t}");
    }
}

/// Regressions (a news opinion page, a Tumblr link post, a rendered
/// changelog): a kicker inside the headline link ("Analysis"), a "↗"
/// hidden from screen readers after it, and a heading's "¶" anchor
/// were read into the titles; a release heading without a version link
/// was linked to a pull request its notes cite.
#[test]
fn kickers_decoration_and_heading_anchors_are_no_part_of_a_title() {
    let item = item_of(
        "<article><h3><a href='/opinion/tunnel/'><span class='kicker kicker--analysis'>Analysis</span> \
         Why the lakefront tunnel vote slipped again</a></h3></article>",
        "article",
    );
    assert_eq!(item.title, "Why the lakefront tunnel vote slipped again");
    let item = item_of(
        "<article><h2><a href='https://sea.example/bowl'>The bowl that survived 800 years \
         <span class=arrow aria-hidden=true>&#8599;</span></a></h2><p>A long read.</p></article>",
        "article",
    );
    assert_eq!(item.title, "The bowl that survived 800 years");
    let release = |v: &str, id: &str| {
        format!(
            "<section class=rel><h2 id='{id}'><a href='https://forge.example/compare/{v}'>{v}</a> - 2026-01-20\
             <a class=headerlink href='#{id}'>&para;</a></h2><ul><li>Fixed a thing \
             (<a href='https://forge.example/pull/4{id}'>#4{id}</a>)</li></ul></section>"
        )
    };
    let html = format!(
        "{}{}<section class=rel><h2 id='192'>[1.9.2] - 2026-01-20<a class=headerlink href='#192'>&para;</a></h2>\
         <ul><li>Installing failed (<a href='https://forge.example/pull/486'>#486</a>)</li></ul></section>{}",
        release("2.4.0", "240"),
        release("2.3.1", "231"),
        release("1.9.1", "191")
    );
    let items = items_of(&html, "rel", "https://docs.example/changelog/");
    // The version link says no word: the heading titles the release,
    // without its anchor and its date (see
    // `a_version_link_in_a_heading_is_titled_by_the_heading`).
    assert_eq!(items[0].title, "2.4.0");
    assert_eq!(items[2].title, "1.9.2");
    assert_eq!(
        items[2].link.as_ref().map(Url::as_str),
        Some("https://docs.example/changelog/#192")
    );
}

/// Regression (a museum's exhibitions grid): the membership card
/// among the exhibitions, marked `card--promo`, was an item. A product
/// on promotion links where the others do and stays.
#[test]
fn the_sites_own_promotion_among_the_records_is_no_item() {
    let card = |class: &str, href: &str, title: &str| {
        format!(
            "<li class='{class}'><h3><a href='{href}'>{title}</a></h3><p>Some words about it.</p></li>"
        )
    };
    let html = [
        card(
            "card card--exhibition",
            "/exhibitions/paper-armour/",
            "Paper Armour",
        ),
        card(
            "card card--promo",
            "/support-us/membership/",
            "See every exhibition for free",
        ),
        card(
            "card card--exhibition card--promo",
            "/exhibitions/quiet-room/",
            "The Quiet Room",
        ),
        card(
            "card card--exhibition",
            "/exhibitions/glass/",
            "Glass Menagerie",
        ),
    ]
    .concat();
    let doc = crate::extract::dom::parse(&format!("<ul>{html}</ul>"));
    let records = records_where(&doc, |i| doc.is_tag(i, "li"));
    let items = items_of_records(&doc, &records, "https://museum.example/whats-on/");
    let kept = without_house_promos(&doc, &records, items);
    let titles: Vec<&str> = kept.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Paper Armour", "The Quiet Room", "Glass Menagerie"]
    );
}

/// Regression (release notes): versions are headings with an in-page
/// `¶` anchor and no other link, and the first carries a "Latest"
/// badge: they had no link at all, and "Latest" ended the title.
#[test]
fn a_heading_without_links_is_linked_by_its_anchor_and_loses_its_badge() {
    let html = "<div class=notes>\
        <div class=r><h2 id=v4-12-0><a class=anchor href='#v4-12-0'></a>Version 4.12.0 \
        <span class='badge badge--latest'>Latest</span></h2><p>Released 18 November 2026</p></div>\
        <div class=r><h2><a class=anchor href='#v4-11-2'></a>Version 4.11.2</h2>\
        <p>Released 4 November 2026</p></div></div>";
    let items = items_of(html, "r", "https://app.example/release-notes/");
    assert_eq!(items[0].title, "Version 4.12.0");
    let links: Vec<Option<&str>> = items
        .iter()
        .map(|it| it.link.as_ref().map(Url::as_str))
        .collect();
    assert_eq!(
        links,
        [
            Some("https://app.example/release-notes/#v4-12-0"),
            Some("https://app.example/release-notes/#v4-11-2")
        ]
    );
}

/// Regression (a live blog): each update's only steady link is its
/// timestamp ("21:20", a `<time datetime>` with a hidden "EST"), so
/// every update was titled "21:20 EST, 9:20 p.m.". An update is titled
/// by its heading, or else by its words, and linked by the timestamp.
#[test]
fn a_live_update_is_titled_by_its_heading_or_words_not_its_time() {
    let update = |id: u32, author: &str, body: &str| {
        format!(
            "<article class=update id=u{id}><header><a class=stamp href='#u{id}'>\
             <time datetime='2026-12-03T21:{id}:00-05:00'>21:{id}</time>\
             <span class=visually-hidden> EST, 9:{id} p.m.</span></a></header>\
             <div class=body>{body}</div><p class=byline><a href='/staff/{author}'>{author}</a></p>\
             </article>"
        )
    };
    let html = [
        update(
            20,
            "dana",
            "<h3>Schools closed Friday in four districts</h3><p>Port Ardent City \
                            Schools and Harmon Local have cancelled classes for Friday.</p>",
        ),
        update(
            31,
            "luis",
            "<p>The weather office has extended the lake-effect snow warning for \
                            Arden and Wyle counties until Saturday morning.</p>",
        ),
        update(
            42,
            "dana",
            "<h3>Governor declares state of emergency</h3><p>The declaration \
                            covers six counties and frees state money for plowing.</p>",
        ),
    ]
    .concat();
    let items = items_of(&html, "update", "https://herald.example/storm-live");
    let titles: Vec<&str> = items.iter().map(|it| it.title.as_str()).collect();
    assert_eq!(titles[0], "Schools closed Friday in four districts");
    assert!(
        titles[1].starts_with("The weather office has extended"),
        "{titles:?}"
    );
    assert_eq!(
        items[1].link.as_ref().map(Url::as_str),
        Some("https://herald.example/storm-live#u31")
    );
    // Regression (an election-night live blog): with the byline unlinked,
    // the timestamps were the only title path, and the updates without a
    // headline were titled "21:31 EST, 9:31 p.m." and linked nowhere (the
    // headlines too). Most open with a headline, not all: the group is
    // read as posts, each titled by its headline or words, all linked by
    // their timestamps.
    let unlinked = html.replace("<a href='/staff/dana'>dana</a>", "dana");
    let unlinked = unlinked.replace("<a href='/staff/luis'>luis</a>", "luis");
    let items = items_of(&unlinked, "update", "https://herald.example/storm-live");
    let got: Vec<(&str, &str)> = titles_and_links(&items);
    assert_eq!(got[0].0, "Schools closed Friday in four districts");
    assert!(
        got[1].0.starts_with("The weather office has extended"),
        "{got:?}"
    );
    assert_eq!(got[2].0, "Governor declares state of emergency");
    let anchors: Vec<&str> = got.iter().map(|(_, l)| *l).collect();
    assert_eq!(
        anchors,
        [20, 31, 42].map(|n| format!("https://herald.example/storm-live#u{n}"))
    );
}

/// Numbers that do not count up through the records (pull-request
/// references in release notes) are not permalinks.
#[test]
fn numbers_that_do_not_count_up_are_not_post_permalinks() {
    let permalinks = |numbers: [&str; 3]| {
        let html: String = numbers.iter().map(|n| post(n, "a", "x")).collect();
        let doc = crate::extract::dom::parse(&html);
        let records = records_of_class(&doc, "post");
        plan_titles(&doc, &records, &ctx()).permalinks.len()
    };
    assert_eq!(permalinks(["1412", "1380", "1377"]), 0);
    assert_eq!(permalinks(["1", "2", "4"]), 3);
}

/// Regression: a commit title split into links around a pull-request
/// reference was titled by its first piece ("Fix panic (").
#[test]
fn a_title_split_into_glued_links_is_read_whole() {
    let it = item_of(
        "<li><p><a href='/c/4be1'>Fix panic on a trailing BOM (</a><a href='/pull/482'>#482</a>\
         <a href='/c/4be1'>)</a></p><a href='/u/mh'>mhollis</a> committed</li>",
        "li",
    );
    assert_eq!(it.title, "Fix panic on a trailing BOM (#482)");
    assert_eq!(it.link.unwrap().as_str(), "https://news.example.com/c/4be1");
    // Links with a space between them are separate (a title and its
    // "Read more" to the same page).
    let it = item_of(
        "<li><h3><a href='/p/1'>Floods reach the city</a> <a href='/p/1'>Read more</a></h3></li>",
        "li",
    );
    assert_eq!(it.title, "Floods reach the city");
    // Regression (a cloud blog's featured article): a card link around
    // its kicker, heading and summary, glued to its "Read Article"
    // link, was read whole with them as its title.
    let it = item_of(
        "<article><div><a href='/p/5-years'><span>Sustainability</span><h2>Five years of renewable energy</h2>\
         <p>For five years now, Google has matched its use.</p></a><a href='/p/5-years'>Read Article</a></div></article>",
        "article",
    );
    assert_eq!(it.title, "Five years of renewable energy");
    // Regression (a launches leaderboard): a product's name and its
    // tagline, glued links to its page in two styles, were one title
    // ("TidepoolShared inbox for all your IoT sensor alerts").
    let it = item_of(
        "<section><div><a class='text-16 font-semibold' href='/posts/tidepool'>Tidepool</a>\
         <a class='tagline text-16 font-normal' href='/posts/tidepool'>Shared inbox for all your IoT sensor alerts</a>\
         </div></section>",
        "section",
    );
    assert_eq!(it.title, "Tidepool");
}

/// The title of an article whose heading link holds `inner`.
fn headline_title(inner: &str) -> String {
    let html = format!("<article><h2><a href='/a/1'>{inner}</a></h2></article>");
    item_of(&html, "article").title
}

/// Regression: a subscriber badge inside the headline's link began
/// the title ("Abonnés Procès des cambriolages ...").
#[test]
fn a_badge_at_the_start_of_the_title_link_is_not_the_title() {
    assert_eq!(
        headline_title(
            "<span class='badge badge--abonnes'>Abonnés</span> Procès des cambriolages en série"
        ),
        "Procès des cambriolages en série"
    );
    // A span that is the whole title is not a badge.
    assert_eq!(
        headline_title("<span class='label'>Short title</span>"),
        "Short title"
    );
}

/// Regression (a Q&A site's newest questions): a closed question's
/// title kept the site's " [closed]" note, and a duplicate's its
/// " [duplicate]"; a bracket the author wrote stays.
#[test]
fn a_status_note_after_a_question_is_not_its_title() {
    assert_eq!(
        headline_title("Best laptop for programming in 2027? [closed]"),
        "Best laptop for programming in 2027?"
    );
    assert_eq!(
        headline_title("Regex for escaped quotes [Duplicate]"),
        "Regex for escaped quotes"
    );
    assert_eq!(
        headline_title("Why does operator[] copy? [C++17]"),
        "Why does operator[] copy? [C++17]"
    );
    assert_eq!(headline_title("[closed]"), "[closed]");
}

/// Regression: a paywall badge at the end of the headline's link ended
/// the title ("Klinikum lockt Pflegekräfte mit eigenen Wohnungen AN+").
#[test]
fn a_badge_at_the_end_of_the_title_link_is_not_the_title() {
    let cases = [
        (
            "Klinikum lockt Pflegekräfte mit eigenen Wohnungen <span class='plus-badge' \
             title='AN+ Artikel'><span class='visually-hidden'>AN+</span>\
             <svg class='icon'></svg></span>",
            "Klinikum lockt Pflegekräfte mit eigenen Wohnungen",
        ),
        // Both ends at once.
        (
            "<span class='pill'>Video</span> Flut am Deich <span class='badge'>Plus</span>",
            "Flut am Deich",
        ),
        // A headline too short to lose its label keeps it.
        ("Ein Tor <span class='badge'>Plus</span>", "Ein Tor Plus"),
        // A time stamped into the link (a Trac timeline).
        (
            "<span class=time>17:58</span> Changeset <em>[4827]</em>",
            "Changeset [4827]",
        ),
        // An icon with a word in it (a Japanese paper's video mark).
        (
            "<span class='c-icon c-icon--video'>動画</span>伝統の「雪吊り」作業始まる",
            "伝統の「雪吊り」作業始まる",
        ),
    ];
    for (inner, title) in cases {
        assert_eq!(headline_title(inner), title, "{inner}");
    }
}

/// Regression: a library catalogue writes "The Salt Road : <span
/// class=subtitle>Walking the Coast</span>" in its title link; the
/// subtitle alone was taken for a card's inner title.
#[test]
fn a_subtitle_inside_the_title_link_is_part_of_the_title() {
    assert_eq!(
        headline_title("The Salt Road : <span class=subtitle>Walking the Coast</span>"),
        "The Salt Road : Walking the Coast"
    );
    // A subtitle that continues the title's sentence belongs to it, when
    // the title is classed too (a catalogue's later markup).
    assert_eq!(
        headline_title(
            "<span class=title-content>Salt Marsh Summer</span>\
             <span class=cp-subtitle>: a novel</span>"
        ),
        "Salt Marsh Summer: a novel"
    );
    // A card link's inner headline is still its title.
    assert_eq!(
        headline_title(
            "<span class=card__title>Floods reach the city</span>\
             <span class=card__subtitle>Water rose overnight</span>"
        ),
        "Floods reach the city"
    );
}

/// Each item's title and its link's fragment.
fn titles_and_fragments(items: &[Item]) -> Vec<(&str, Option<&str>)> {
    items
        .iter()
        .map(|i| (i.title.as_str(), i.link.as_ref().and_then(Url::fragment)))
        .collect()
}

/// Whether the first `tag` element of `html`, taken as a record, is an
/// advertisement.
fn first_is_ad(html: &str, tag: &str) -> bool {
    let doc = crate::extract::dom::parse(html);
    let id = (0..doc.nodes.len() as NodeId)
        .find(|&i| doc.is_tag(i, tag))
        .expect("the card");
    is_advertising(
        &doc,
        &Record {
            start: id,
            end: doc.node(id).end,
        },
    )
}

/// Regression: sponsored property cards in the listings' own markup
/// carry their "Sponsored" label two levels down, in the card's header.
#[test]
fn a_card_labelled_sponsored_below_its_top_is_an_ad() {
    let is_ad = |html: &str| first_is_ad(html, "article");
    let card = |tag: &str| {
        format!(
            "<article class=propertyCard><div class=propertyCard-header>{tag}</div>\
             <h2><a href='/p/1'>Harbourside Quarter, Whitcombe</a></h2></article>"
        )
    };
    assert!(is_ad(&card(
        "<div class='propertyCard-tag propertyCard-tag--sponsored'>Sponsored</div>"
    )));
    // A label that says something else, or an ad class on an empty
    // slot, does not make the card an ad.
    assert!(!is_ad(&card(
        "<div class='propertyCard-tag propertyCard-tag--sponsored'>Featured</div>"
    )));
    assert!(!is_ad(&card("<div class='inline-ad-slot'></div>")));
    // Regression: a marketplace's label sits six levels into the card.
    assert!(is_ad(&card(
        "<div class=container><div class=section><div class=row>\
         <span class=declarative><a class='label-popover sponsored-label-text'>Sponsored</a>\
         </span></div></div></div>"
    )));
    // Regression: a marketplace marks its sponsored results, and an
    // "Editorial recommendations" block among them, with a camel-case
    // class (`AdHolder`); the block was kept as a record.
    let slot = |class: &str| {
        format!(
            "<article class='{class}'><h2><a href='/p/1'>Harbourside Quarter</a></h2></article>"
        )
    };
    assert!(is_ad(&slot("s-result-item AdHolder s-flex-full-width")));
    // A mark that says only "promoted" is an ad where the record says so
    // (a timeline's "Promoted" tweet), not where its editors picked it (a
    // help center's `article-promoted` among the section's articles).
    let labelled = |class: &str, label: &str| {
        format!(
            "<article class='{class}'><h2><a href='/p/1'>Harbourside Quarter</a></h2>\
             <span>{label}</span></article>"
        )
    };
    assert!(is_ad(&labelled("promotedTweet", "Promoted")));
    assert!(is_ad(&labelled(
        "listing-card listing-card--promoted",
        "Ad by Kiln seller"
    )));
    assert!(!is_ad(&slot("promotedTweet")));
    assert!(!is_ad(&labelled(
        "article-list-item article-promoted",
        "Billing"
    )));
    for class in ["HeadlineCard padded", "LoadMore", "iPad-case", "ADVENTURE"] {
        assert!(!is_ad(&slot(class)), "{class}");
    }
    // Regression: a launch board's promoted entry is labelled by a CSS
    // module's class (`styles_promoted__kQ7vR`), split by `_`; it was
    // ranked among the day's launches.
    assert!(is_ad(&card(
        "<span class='styles_promoted__kQ7vR rounded-sm px-1.5'>Promoted</span>"
    )));
    assert!(!is_ad(&card(
        "<span class='styles_featured__kQ7vR rounded-sm px-1.5'>Promoted</span>"
    )));
    // Regression: a marketplace marks its ads only with text for
    // screen readers ("Ad from shop …"; others say "From shop …").
    let card = |label: &str| {
        format!(
            "<article class=listing-card><a href='/listing/1'><div class=info>\
             <div class=caption><span class=wt-screen-reader-only>{label}</span></div>\
             <h3>Blue glaze tumbler</h3></div></a></article>"
        )
    };
    assert!(is_ad(&card("Ad from shop SaltGlazeSisters")));
    assert!(is_ad(&card("Sponsored")));
    for label in [
        "From shop SaltGlazeSisters",
        "Add to basket",
        "5.0 out of 5 stars",
    ] {
        assert!(!is_ad(&card(label)), "{label}");
    }
    // Regression: an ad between the unwrapped siblings of two stories
    // made the story before it an ad.
    let doc = crate::extract::dom::parse(
        "<div id=list><header><h2><a href='/s/4'>Story four</a></h2></header>\
         <div class=body>Text</div><div class=ntv-sponsored>\
         <span class=ad-label>Advertisement</span></div></div>",
    );
    let header = (0..doc.nodes.len() as NodeId)
        .find(|&i| doc.is_tag(i, "header"))
        .expect("the story's first sibling");
    let list = doc.node(header).parent.expect("the list");
    let story = Record {
        start: header,
        end: doc.node(list).end,
    };
    assert!(!is_advertising(&doc, &story));
}

/// Regression: phpBB repeats each topic's last-post time in a block
/// hidden by inline style before the topic's own start time; the
/// hidden time dated the topic.
#[test]
fn a_date_hidden_by_the_markup_gives_way_to_the_visible_one() {
    let topic = |hidden: &str| {
        format!(
            "<li class='row'><a class='topictitle' href='/t/931'>Safety first on mains sets</a>\
             <div class='responsive-show' {hidden}>Last post by Annie &laquo; \
             <time datetime='2026-10-30T12:02:55+00:00'>Fri Oct 30, 2026</time></div>\
             <div class='topic-poster'>by Sid &raquo; \
             <time datetime='2019-03-06T20:41:19+00:00'>Wed Mar 06, 2019 8:41 pm</time></div></li>"
        )
    };
    for hidden in [
        "style='display: none;'",
        "style='color:red; DISPLAY:NONE !important'",
        "hidden",
    ] {
        let it = item_of(&topic(hidden), "li");
        let date = it.date.map(|d| d.to_rfc3339());
        assert_eq!(
            date.as_deref(),
            Some("2019-03-06T20:41:19+00:00"),
            "{hidden}"
        );
    }
    // Shown, the first time is still the last post's, as its label says:
    // the topic's own date is the poster's.
    let it = item_of(&topic("style='display: block'"), "li");
    assert_eq!(it.date.unwrap().to_rfc3339(), "2019-03-06T20:41:19+00:00");
    // A date only in hidden markup is still the record's date.
    let only_hidden = "<li><a href='/t/1'>Schedule for the next meeting</a>\
         <span hidden><time datetime='2024-03-05T10:00:00+00:00'>5 March</time></span></li>";
    let it = item_of(only_hidden, "li");
    assert_eq!(it.date.unwrap().to_rfc3339(), "2024-03-05T10:00:00+00:00");
    let text_only = "<li><a href='/t/1'>Schedule for the next meeting</a>\
         <span style='display:none'>Posted 5 March 2024</span></li>";
    let it = item_of(text_only, "li");
    assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
}

#[test]
fn teaser_with_thumbnail_heading_and_time() {
    let it = item_of(
        "<article><a href='/p/1'><img src='/i/1.jpg' alt=''></a><h3><a href='/p/1'>Floods reach the city</a></h3>\
         <p>Water levels rose overnight.</p><a href='/p/1#c'>12 comments</a>\
         <time datetime='2024-03-05T08:00:00+01:00'>5 March</time></article>",
        "article",
    );
    assert_eq!(it.title, "Floods reach the city");
    assert_eq!(it.link.unwrap().as_str(), "https://news.example.com/p/1");
    assert_eq!(
        it.image.unwrap().as_str(),
        "https://news.example.com/i/1.jpg"
    );
    assert_eq!(it.date.unwrap().to_rfc3339(), "2024-03-05T08:00:00+01:00");
    assert!(it.summary.contains("Water levels rose overnight."));
    assert!(!it.summary.contains("Floods reach"));
}

#[test]
fn list_row_with_date_span_and_read_more() {
    let it = item_of(
        "<li><span>March 5, 2024</span> <a href='post.html'>Read more</a> <a href='post.html'>On writing</a></li>",
        "li",
    );
    assert_eq!(it.title, "On writing");
    assert_eq!(
        it.link.as_ref().unwrap().as_str(),
        "https://news.example.com/world/post.html"
    );
    assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
    assert!(it.guid_is_permalink());
}

/// Regression: a card whose `<a>` wraps heading, summary and date lost
/// its date, because every date inside the title link was taken for
/// part of the headline.
#[test]
fn date_beside_the_heading_of_a_card_link_is_the_records() {
    let it = item_of(
        "<div><a href='walk.html'><p>Trails</p><h4>Walking the drovers' road</h4><p>Three days on a green lane.</p><span>March 8, 2024</span></a></div>",
        "div",
    );
    assert_eq!(it.title, "Walking the drovers' road");
    assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-08");
    // A date in the headline itself is still no record date.
    let it = item_of(
        "<div><h3><a href='review.html'>Our review of March 8, 2024</a></h3></div>",
        "div",
    );
    assert!(it.date.is_none(), "{:?}", it.date);
}

/// A German news teaser (telepolis, heise) dates itself "heute, 11:45
/// Uhr" after the author: the item takes that day and time, and is
/// marked as a date that moves with the clock.
#[test]
fn german_day_word_with_time_dates_the_teaser() {
    let it = item_of(
        "<article><h3><a href='/tp/features/Maskenpflicht-4959380.html'>Maskenpflicht in der Grundschule</a></h3>\
         <p>Die übersehenen Nebenwirkungen Christof Kuhbandner heute, 11:45 Uhr <a href='#k'>258</a></p></article>",
        "article",
    );
    assert_eq!(it.title, "Maskenpflicht in der Grundschule");
    let today = ctx().now.date_naive();
    let date = it.date.expect("a date from \"heute, 11:45 Uhr\"");
    assert_eq!(date.date_naive(), today);
    assert_eq!(date.time().to_string(), "11:45:00");
    assert!(it.date_relative);
}

/// Regression: a lazy loader's placeholder `src="/img/blank.gif"` made
/// the picture decorative although `data-src` held the real one.
#[test]
fn lazy_loaded_picture_behind_a_blank_placeholder_is_the_image() {
    let it = item_of(
        "<article><img src='/img/blank.gif' data-src='/media/heat-pump-480.jpg' width='480' height='270' alt=''>\
         <h3><a href='/p/2'>Heat pumps outsold furnaces</a></h3></article>",
        "article",
    );
    assert_eq!(
        it.image.map(|u| u.to_string()).as_deref(),
        Some("https://news.example.com/media/heat-pump-480.jpg")
    );
}

/// Forum rows show their posters' avatars; none is the record's picture,
/// whether the class or the address says so.
#[test]
fn posters_avatars_are_not_the_image() {
    for img in [
        "<img class='avatar' src='/letter/s/a87d34/48.png' width='48' height='48'>",
        "<img src='/user_avatar/q/jpvandijk/48/4410_2.png' width='48' height='48'>",
    ] {
        let it = item_of(
            &format!(
                "<table><tr><td><a href='/t/export-to-pdf/18249'>Export to PDF cuts off code blocks</a></td><td><a href='/u/x'>{img}</a></td></tr></table>"
            ),
            "tr",
        );
        assert_eq!(it.image, None, "{img}");
    }
}

/// A forum topic list's activity cell: the first of the tooltip's
/// labelled dates (the topic's creation) is the record's date.
#[test]
fn labelled_tooltip_gives_its_first_date() {
    let it = item_of(
        "<table><tr><td><a href='/t/feature-request/18233'>Feature request: per-notebook default font</a></td>\
         <td class='activity' title='Created: Mar 8, 2024 9:12 am&#10;Latest: Mar 10, 2024 6:05 pm'><a href='/t/feature-request/18233/7'>2h</a></td></tr></table>",
        "tr",
    );
    assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-08");
    assert_eq!(tooltip_date("Posted by: someone", &ctx()), None);
    assert_eq!(
        tooltip_date("A very long label that is not one: Mar 8, 2024", &ctx()),
        None
    );
}

/// Regression: a comment's age ("19 hours ago") carries its time in a
/// tooltip that opens with the timestamp and ends with its Unix time
/// (`title="2026-11-20T21:05:12 1795208712"`, as Hacker News writes
/// it); the whole tooltip is no date, so 29 comments had none.
#[test]
fn a_tooltip_opening_with_a_timestamp_gives_it() {
    let it = item_of(
        "<table><tr class='athing comtr'><td><span class=comhead><a href='user?id=pm'>pm</a> \
         <span class=age title='2026-11-20T21:05:12 1795208712'><a href='item?id=45881230'>19 hours ago</a></span>\
         </span><div class=commtext>Paper labels fade within two years in our shop.</div></td></tr></table>",
        "tr",
    );
    assert_eq!(it.date.unwrap().to_rfc3339(), "2026-11-20T21:05:12+00:00");
    assert!(!it.date_relative);
    // Only a timestamp followed by numbers: not a date and some words.
    for title in [
        "2026-11-20 and then some",
        "2026-11-20T21:05:12 by pm",
        "v2 1795208712",
    ] {
        assert_eq!(tooltip_date(title, &ctx()), None, "{title}");
    }
}

/// Regression: a date whose day, month and year are separate inline
/// elements ("05Mar2024" as text) gave none.
#[test]
fn date_split_into_day_month_and_year_spans() {
    let it = item_of(
        "<article><div class='date'><span class='day'>05</span><span class='month'>Mar</span><span class='year'>2024</span></div>\
         <h3><a href='/whats-on/lantern-keepers/'>The Lantern Keepers</a></h3><p>Main House · 7.30pm</p></article>",
        "article",
    );
    assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
}

/// Regression: an events card's badge "<span>Sat</span>
/// <span>2</span> <span>Mar</span>" (no year) gave no date: no text
/// node holds it, and a yearless day is a date only as a whole string.
#[test]
fn a_day_split_into_spans_is_read_as_the_whole_of_its_element() {
    let day = |badge: &str| {
        let html = format!(
            "<li><div class=date-badge>{badge}</div>\
             <h3><a href='/whats-on/quartet/'>Ottoline Vasquez Quartet</a></h3>\
             <p>Main House · 7.30pm · £16</p></li>"
        );
        item_of(&html, "li")
            .date
            .map(|d| d.date_naive().to_string())
    };
    assert_eq!(
        day("<span>Sat</span> <span>2</span> <span>Mar</span>").as_deref(),
        Some("2024-03-02")
    );
    // A run of nights is dated by its first.
    let run = "<span>Thu</span> <span>7</span> <span>Mar</span> <span>–</span> \
               <span>Sat</span> <span>9</span> <span>Mar</span>";
    assert_eq!(day(run).as_deref(), Some("2024-03-07"));
    // Parts that are more than a day are no date.
    assert_eq!(
        day("<span>Room</span> <span>5</span> <span>March wing</span>"),
        None
    );
}

/// Regression: a Trac timeline's "Ticket #1193 (…) closed" links to
/// `ticket/1193#comment:6`; the fragment was dropped, so a later event
/// of the same ticket would have had the same link and guid.
#[test]
fn a_link_to_one_comment_of_a_page_keeps_its_fragment() {
    let link = |href: &str| {
        let html = format!(
            "<li><a href='{href}'>Ticket #1193 (Crash when importing an empty file) closed</a> by ana</li>"
        );
        item_of(&html, "li").link.map(|u| u.to_string())
    };
    let page = "https://news.example.com/trac/ticket/1193";
    for fragment in ["comment:6", "comment-12", "issuecomment-88", "post_5"] {
        assert_eq!(
            link(&format!("/trac/ticket/1193#{fragment}")),
            Some(format!("{page}#{fragment}"))
        );
    }
    // Anchors of a page's parts, not of one comment, are dropped.
    for fragment in [
        "comments",
        "more-1193",
        "respond",
        "comment-form",
        "section-2",
    ] {
        assert_eq!(
            link(&format!("/trac/ticket/1193#{fragment}")),
            Some(page.to_owned())
        );
    }
}

/// A wiki's recent-changes line: "(diff | hist) . . Title; time . .
/// user", in zebra rows; `diff` is plain text for a page's creation.
fn change_line(row: usize, page: &str, diff: Option<u32>) -> String {
    let zebra = ["odd", "even"][row % 2];
    let diff = match diff {
        Some(d) => format!("<a href='/w/index.php?title={page}&amp;diff={d}'>diff</a>"),
        None => "diff".to_owned(),
    };
    format!(
        "<li class='mw-line-{zebra} mw-changeslist-line'>({diff} | \
         <a href='/w/index.php?title={page}&amp;action=history'>hist</a>) . . \
         <span class=mw-title><a href='/wiki/{page}' class=mw-changeslist-title>{}</a></span>; \
         1{row}:05 . . <a class=mw-userlink href='/wiki/User:Ann'>Ann</a></li>",
        page.replace('_', " ")
    )
}

/// Regression: a wiki's recent changes list each edit of a page under
/// the page's title, in zebra rows. The rows' classes split the title
/// path in two, titles that repeat with their page were taken for
/// action links, and the edits of one page shared its link and guid
/// (20 of 31 edits were left).
#[test]
fn an_edit_of_a_page_listed_again_is_linked_by_its_diff() {
    let pages = [
        ("Fernbrook_Viaduct", Some(48268)),
        ("Mill_Lane", Some(48255)),
        ("Fernbrook_Viaduct", Some(48248)),
        ("Harriet_Okafor", None),
        ("Old_Corn_Exchange", Some(48235)),
        ("Mill_Lane", Some(48230)),
    ];
    let html: String = pages
        .iter()
        .enumerate()
        .map(|(i, (page, diff))| change_line(i, page, *diff))
        .collect();
    let items = items_of_lis(
        &format!("<ul>{html}</ul>"),
        "https://wiki.example.org/wiki/Special:RecentChanges",
    );
    let got = titles_and_links(&items);
    let diff =
        |page: &str, d: u32| format!("https://wiki.example.org/w/index.php?title={page}&diff={d}");
    assert_eq!(
        got,
        vec![
            (
                "Fernbrook Viaduct",
                diff("Fernbrook_Viaduct", 48268).as_str()
            ),
            ("Mill Lane", diff("Mill_Lane", 48255).as_str()),
            (
                "Fernbrook Viaduct",
                diff("Fernbrook_Viaduct", 48248).as_str()
            ),
            // A creation has no diff: its page.
            (
                "Harriet Okafor",
                "https://wiki.example.org/wiki/Harriet_Okafor"
            ),
            (
                "Old Corn Exchange",
                diff("Old_Corn_Exchange", 48235).as_str()
            ),
            ("Mill Lane", diff("Mill_Lane", 48230).as_str()),
        ]
    );
}

/// Records titled by links that repeat keep them when the other links
/// are not changes of the titles' pages: an author's papers each with
/// a PDF are not edits of the author's page.
#[test]
fn a_repeated_title_link_keeps_it_when_no_link_is_a_change_of_its_page() {
    let html: String = [("Klinga", 1927), ("Klinga", 1925), ("Osipchuk", 1574)]
        .iter()
        .map(|(who, n)| {
            format!(
                "<li><a href='/search?query={who}'>{who} and others</a>: \
                 <a href='/pdf/2111.0{n}'>pdf</a> On a problem {n}</li>"
            )
        })
        .collect();
    let items = items_of_lis(
        &format!("<ul>{html}</ul>"),
        "https://arxiv.example.org/list",
    );
    let links = links_of(&items);
    assert_eq!(
        links,
        [
            "https://arxiv.example.org/search?query=Klinga",
            "https://arxiv.example.org/search?query=Klinga",
            "https://arxiv.example.org/search?query=Osipchuk",
        ]
    );
}

#[test]
fn record_without_link_gets_stable_content_guid() {
    let a = item_of("<div><b>Closed on Monday</b><p>Holiday.</p></div>", "div");
    let b = item_of("<div><b>Closed on Monday</b><p>Holiday.</p></div>", "div");
    assert_eq!(a.title, "Closed on Monday");
    assert!(a.link.is_none() && a.guid.starts_with("urn:feedmine:"));
    assert_eq!(a.guid, b.guid);
    assert!(!a.guid_is_permalink());
}

#[test]
fn base_href_and_javascript_links() {
    let doc = crate::extract::dom::parse(
        "<head><base href='/blog/'></head><body><a href='javascript:void(0)'>x</a></body>",
    );
    let base = base_url(&doc, &Url::parse("https://ex.com/a/b").unwrap());
    assert_eq!(base.as_str(), "https://ex.com/blog/");
    assert!(resolve(&base, "javascript:void(0)").is_none());
    assert_eq!(
        resolve(&base, "p/1").unwrap().as_str(),
        "https://ex.com/blog/p/1"
    );
}

/// Regression (a forum topic's posts): each summary ended in the labels
/// of the post's buttons ("1 Reply 2 Reply Summarize").
#[test]
fn a_summary_leaves_out_the_labels_of_buttons() {
    let html = "<article class=post><h2><a href=/t/4821/2>Incremental builds after 0.9</a></h2>\
        <p>Same here on a much smaller site, after adding a data directory.</p>\
        <nav><button class=show-replies><span>1 Reply</span></button><button>2</button>\
        <button class=reply><span>Reply</span></button><select><option>Share</option></select></nav></article>";
    let item = item_of(html, "article");
    assert_eq!(
        item.summary,
        "Same here on a much smaller site, after adding a data directory."
    );
}

/// Regression (a link aggregator's front page): each post's age says "4
/// hours ago" and keeps its exact time where a tooltip library reads it
/// (`data-tippy-content`, Bootstrap's `data-bs-original-title`), not in
/// `title`; every post was dated by the clock instead.
#[test]
fn a_relative_age_is_dated_by_its_tooltip_library_attribute() {
    for attr in [
        "data-tippy-content",
        "data-bs-original-title",
        "data-original-title",
        // Regression (a self-hosted forge's issue list): Fomantic UI's
        // popup, and Semantic UI's before it, keep "Sat, 28 Nov 2026
        // 09:14:33 CET" for "opened 3 days ago"; 22 of 25 issues were
        // dated by the clock.
        "data-tooltip-content",
        "data-content",
    ] {
        let html = format!(
            "<div class=post-listing><h2><a href='https://news.example/story'>Harbour fog closes the ferry</a></h2>\
             <a href='/u/kestrel'>kestrel</a> <span class='moment-time pointer' \
             {attr}='Saturday, March 9th 2024, 18:22:10'>4 hours ago</span></div>"
        );
        let item = item_of(&html, "div");
        assert_eq!(
            item.date.map(|d| d.date_naive().to_string()),
            Some("2024-03-09".to_string()),
            "{attr}"
        );
    }
}

/// Regression (a comment thread): each comment's permalink says "3 days
/// ago" and keeps its exact time in its `title`; the comments were
/// undated. A link whose words are no date keeps its tooltip to itself.
#[test]
fn a_relative_time_link_is_dated_by_its_tooltip() {
    let comment = |link_text: &str| {
        format!(
            "<li class=post><p>The ferry terminal plan finally passed the council vote.</p>\
             <a class=time-ago href='#comment-1' title='Tuesday, March 5, 2024 2:14 PM'>{link_text}</a></li>"
        )
    };
    let dated = item_of(&comment("3 days ago"), "li");
    assert_eq!(
        dated.date.map(|d| d.date_naive().to_string()),
        Some("2024-03-05".to_string())
    );
    let undated = item_of(&comment("Link to this comment"), "li");
    assert_eq!(undated.date, None);
}

/// Regression (a community feed): a billboard in the stories' own card
/// markup, whose link is marked paid (`rel="noopener sponsored"`), was an
/// item. A story that cites a sponsored link further down is no ad.
#[test]
fn a_card_whose_first_link_is_sponsored_is_advertising() {
    let card = |first_rel: &str, later_rel: &str| {
        format!(
            "<div class=story><h2><a rel='{first_rel}' href=https://ads.example/x>Ship faster with Stackbyte</a></h2>\
             <p>Words <a rel='{later_rel}' href=https://ads.example/y>a partner</a></p></div>"
        )
    };
    // Regression (a job board): a featured job's company link comes
    // first, and its headline's link is the paid one; the two featured
    // jobs were items.
    let job = |title_rel: &str| {
        format!(
            "<div class=story><div><a href=/companies/hexaport>Hexaport</a> · Remote</div>\
             <h2><a rel='{title_rel}' href=https://jobs.example/click/f-71c2>Principal Python Engineer</a></h2></div>"
        )
    };
    for (html, ad) in [
        (card("noopener sponsored", ""), true),
        (card("noopener", "sponsored"), false),
        (job("sponsored noopener"), true),
        (job("noopener"), false),
    ] {
        let doc = crate::extract::dom::parse(&html);
        let rec = records_of_class(&doc, "story")[0];
        assert_eq!(is_advertising(&doc, &rec), ad, "{html}");
    }
}

/// Regression (a standards body's documents table): every row classes
/// its Area Director cell `ad`, so every row was an ad and the page gave
/// nothing. Ads interrupt a list: when most records carry the mark, it
/// means something else. One ad among stories is still one.
#[test]
fn a_mark_most_records_carry_is_no_ad() {
    let row = |n: u32| {
        format!(
            "<tr class=doc><td class=doc><a href=/doc/draft-stex-part-{n}/>draft-stex-part-{n}-07</a>\
             <b>Secure Telemetry Export, part {n}</b></td><td class=date>2024-03-0{n}</td>\
             <td class=ad><a href=/person/maya-lindgren/>Maya Lindgren</a></td></tr>"
        )
    };
    let html = format!("<table>{}</table>", (1..=5).map(row).collect::<String>());
    let doc = crate::extract::dom::parse(&html);
    let rows = records_of_class(&doc, "doc")
        .into_iter()
        .filter(|r| doc.is_tag(r.start, "tr"))
        .collect::<Vec<_>>();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| is_advertising(&doc, r)));
    assert_eq!(interruptions(&doc, &rows), [false; 5]);

    let story = |n: u32, class: &str| {
        format!("<li class='{class}'><a href=/s/{n}>Harbour fog story number {n} today</a></li>")
    };
    let html = format!(
        "<ul>{}{}{}</ul>",
        story(1, "story"),
        story(2, "story ad-slot"),
        (3..=5).map(|n| story(n, "story")).collect::<String>()
    );
    let doc = crate::extract::dom::parse(&html);
    let items = records_where(&doc, |i| doc.is_tag(i, "li"));
    assert_eq!(
        interruptions(&doc, &items),
        [false, true, false, false, false]
    );
}

/// Regression (a procurement table): the reference cell and the title cell
/// share their first class (`govuk-table__cell`), so the reference link
/// "RFQ-2024-0113", first at that path, was the headline path's link. A
/// cell whose class names a title is a path of its own.
#[test]
fn a_title_classed_cell_is_its_own_title_path() {
    let rows: String = (0..4)
        .map(|i| {
            format!(
                "<tr class=row><td class='cell ref'><a href=/tenders/R-{i}>R-{i}</a></td>\
                 <td class='cell row__title'><a href=/tenders/R-{i}>Resurfacing of car park number {i} in town</a></td>\
                 <td class=cell>Published 05/03/2024</td></tr>"
            )
        })
        .collect();
    let doc = crate::extract::dom::parse(&format!("<table><tbody>{rows}</tbody></table>"));
    let records = records_of_class(&doc, "row");
    let plan = plan_titles(&doc, &records, &ctx());
    assert_eq!(plan.path.as_deref(), Some("tr./td.row__title/a."));
}

/// A summary is read from the start of a record's text only
/// ([`summary_source_bytes`]), and is the summary of the whole text: with
/// the title near the start, past the cut, absent, or none (a comment's).
#[test]
fn a_summary_from_the_start_of_a_long_record_is_the_whole_records() {
    let prose = "Die Fähre über den Fluss fährt ab Montag wieder 🚢, sagt das Amt. ".repeat(400);
    let html = format!(
        "<article><h2><a href='/ferry'>Ferry back on Monday</a></h2><p>{prose}</p>\
         <p>Late heading in the text</p><p>{prose}</p></article>"
    );
    let doc = crate::extract::dom::parse(&html);
    let root = (0..doc.nodes.len() as NodeId)
        .find(|&i| doc.is_tag(i, "article"))
        .expect("an article");
    let end = doc.node(root).end;
    let whole = doc.shown_text_of_range(root, end);
    for title in [
        "Ferry back on Monday",
        "Late heading in the text",
        "Absent",
        "",
    ] {
        let prefix = doc.shown_text_prefix(root, end, summary_source_bytes(title));
        assert!(
            prefix.len() < whole.len() / 2,
            "{title:?} read the whole record"
        );
        let cut = summary_without(prefix, title);
        assert_eq!(cut, summary_without(whole.clone(), title), "{title:?}");
        assert!(cut.ends_with('…'), "{title:?}");
    }
}

/// Each item's link ("" for none).
fn links_of(items: &[Item]) -> Vec<&str> {
    items
        .iter()
        .map(|it| it.link.as_ref().map_or("", Url::as_str))
        .collect()
}

/// The calendar day of each item's date ("" for none).
fn days_of(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .map(|it| {
            it.date
                .map(|d| d.date_naive().to_string())
                .unwrap_or_default()
        })
        .collect()
}

/// A thread's "Latest comment: 2 days ago" bar comes before its first
/// comment: the date of the latest activity moves with every reply and is
/// never the record's; the first comment's timestamp is.
#[test]
fn a_date_labelled_as_the_latest_activity_is_not_the_records() {
    let thread = |topic: &str, slug: &str, day: u32| {
        format!(
            "<li class=thread><h3><a href='/t/{slug}'>{topic}</a></h3>\
             <div class=bar>Latest comment: <a href='#c-{slug}'>2 days ago</a> · 3 comments</div>\
             <p>Has anyone got the winter timetable for the quay ferry yet? \
             — Ann Tovey 10:42, {day} January 2024 (UTC)</p>\
             <div class=bar-foot><span>Last post:</span> <time datetime='2024-03-08'>8 March</time></div></li>"
        )
    };
    let html = format!(
        "<ul>{}{}{}</ul>",
        thread("Ferry timetable", "ferry", 14),
        thread("Quay lights", "lights", 15),
        thread("Lantern route", "route", 16)
    );
    let items = items_of_lis(&html, "https://forum.example/");
    let days = days_of(&items);
    assert_eq!(days, ["2024-01-14", "2024-01-15", "2024-01-16"]);
    assert!(items.iter().all(|it| !it.date_relative));
}

/// A wiki heading's "[edit]" link is no part of its title, and a record
/// with no title link is titled by its heading and linked by the
/// heading's place on the page (MediaWiki's `span.mw-headline` id), not
/// by the pages and users its comments cite.
#[test]
fn an_unlinked_heading_with_a_place_titles_and_links_its_record() {
    let section = |title: &str, id: &str, user: &str| {
        format!(
            "<div class=sec><h2><span class=mw-headline id={id}>{title}</span>\
             <span class=mw-editsection>[<a href='/w/index.php?action=edit&amp;section=1'>edit</a>]</span></h2>\
             <p>The lead cites <a href='/wiki/Harwick_Gazette'>the Harwick Gazette</a> for this, \
             but the index for that year has nothing about it at all. — \
             <a href='/wiki/User:{user}'>{user}</a> (<a href='/wiki/User_talk:{user}'>talk</a>) \
             08:15, 2 November 2022 (UTC)</p></div>"
        )
    };
    let html = format!(
        "<main>{}{}{}</main>",
        section("Founding year", "Founding_year", "Tamsin_Rook"),
        section("Route map", "Route_map", "Oswin_Parry"),
        section("Attendance figures", "Attendance_figures", "Lowri_Banfield")
    );
    let items = items_of(&html, "sec", "https://wiki.example/wiki/Talk:Lanterns");
    let got = titles_and_links(&items);
    assert_eq!(
        got,
        [
            (
                "Founding year",
                "https://wiki.example/wiki/Talk:Lanterns#Founding_year"
            ),
            (
                "Route map",
                "https://wiki.example/wiki/Talk:Lanterns#Route_map"
            ),
            (
                "Attendance figures",
                "https://wiki.example/wiki/Talk:Lanterns#Attendance_figures"
            ),
        ]
    );
}

/// Regression (phpBB): a topic's start date is text ("by Sid » Wed Mar
/// 06, 2019"), its last post's a `<time>` in `dd.lastpost`, whose label
/// ("Last post") is a `dfn` further up. The last post dated the topic.
#[test]
fn a_date_in_an_element_classed_as_the_last_post_is_not_the_records() {
    let topic = |t: u32, day: u32| {
        format!(
            "<li class='row'><dl><dt><a class=topictitle href='/t/{t}'>Topic number {t} on mains sets</a>\
             <div class=responsive-hide>by <a href=/u/1>Sid</a> &raquo; Wed Mar {day:02}, 2019 8:41 pm</div></dt>\
             <dd class=posts>3</dd><dd class=lastpost><span><dfn>Last post </dfn>by \
             <a href=/u/2>Annie</a><a href='/p/{t}'><i class=icon></i></a><br>\
             <time datetime='2026-10-30T12:02:55+00:00'>Fri Oct 30, 2026</time></span></dd></dl></li>"
        )
    };
    let html = format!("<ul>{}{}{}</ul>", topic(1, 6), topic(2, 7), topic(3, 8));
    let items = items_of_lis(&html, "https://forum.example/");
    let days = days_of(&items);
    assert_eq!(days, ["2019-03-06", "2019-03-07", "2019-03-08"]);
}

/// Regression (a Discuz! board): a thread's start day is text in its
/// author cell ("2026-11-26"), its last post's a tooltip ("2026-11-30
/// 20:02") on "昨天 20:02", inside a link to
/// `forum.php?mod=redirect&goto=lastpost#lastpost`. The last post dated
/// the thread; a slug with the same words is the thread's own link.
#[test]
fn a_date_in_a_link_to_the_last_post_is_not_the_records() {
    let thread = |t: u32, day: u32| {
        format!(
            "<li><a class='s xst' href='thread-{t}-1-1.html'>Thread number {t} about a bathroom</a>             <cite><a href='space-uid-{t}.html'>user{t}</a></cite><em><span>2026-11-{day:02}</span></em>             <em><a href='forum.php?mod=redirect&amp;tid={t}&amp;goto=lastpost#lastpost'>             <span title='2026-11-30 20:02'>昨天&nbsp;20:02</span></a></em></li>"
        )
    };
    let html = format!(
        "<ul>{}{}{}</ul>",
        thread(1, 26),
        thread(2, 27),
        thread(3, 28)
    );
    let items = items_of_lis(&html, "https://bbs.example/");
    assert_eq!(days_of(&items), ["2026-11-26", "2026-11-27", "2026-11-28"]);
}

/// A record titled by its unlinked heading is linked by its "Full story"
/// link when it has one (its own page), else by the heading's place.
#[test]
fn an_unlinked_heading_record_is_linked_by_its_full_story_link() {
    let item = |id: &str, more: &str| {
        format!(
            "<div class=item><h3 id={id}>Cryogenic mirror passes its cold test</h3>\
             <p>A prototype built in the <a href=/research/instrumentation/>Astronomical \
             Instrumentation Group</a> held its figure after cooling to forty kelvin.</p>{more}</div>"
        )
    };
    let html = format!(
        "<main>{}{}{}</main>",
        item(
            "a",
            "<p><a class=more href=/news/2025/mirror>Full story</a></p>"
        ),
        item("b", ""),
        item("c", "<p><a href=/news/2025/lights>Read more »</a></p>")
    );
    let items = items_of(&html, "item", "https://uni.example/physics/news/");
    let links = links_of(&items);
    assert_eq!(
        links,
        [
            "https://uni.example/news/2025/mirror",
            "https://uni.example/physics/news/#b",
            "https://uni.example/news/2025/lights"
        ]
    );
}

/// A forge issue's comment ("**who** commented · <relative-time>" in an
/// `h3` above a body of paragraphs).
fn forge_comment(id: u32, who: &str, body: &str) -> String {
    format!(
        "<div class=item><div class=avatar><a href=/{who}><img src=/a/{who}.png alt=''></a></div>\
         <div class=comment id=issuecomment-{id}><h3><div><strong>\
         <a class=author href=/{who}>{who}</a></strong> commented \
         <a href=#issuecomment-{id} class=js-timestamp>\
         <relative-time datetime=2025-02-1{id}T08:41:27Z>Feb 1{id}, 2025</relative-time></a>\
         </div></h3><div class=comment-body>{body}</div></div></div>"
    )
}

/// A forge issue's line of activity, with what it adds after the line.
fn forge_event(id: u32, who: &str, did: &str, after: &str) -> String {
    format!(
        "<div class=item><div class=event-body><a class=author href=/{who}>{who}</a> {did} \
         <a href=#event-{id}><relative-time datetime=2025-02-1{id}T09:00:00Z>Feb 1{id}, 2025\
         </relative-time></a>{after}</div></div>"
    )
}

const ISSUE: &str = "https://forge.example/tide/tide/issues/1873";

/// Regression (a forge's issue page): each comment's `h3` holds only
/// its author's link, "commented" and its `<relative-time>` permalink,
/// so the comments counted as headed and were titled by their authors
/// and linked to their profiles; `<relative-time>` was no time.
#[test]
fn a_header_of_author_and_time_is_a_byline_not_a_headline() {
    let body = |first: &str| {
        format!(
            "<p>{first} The last edge is computed in the resampler, and it looks like the \
             end of the index is treated as exclusive.</p><p>I will take this one.</p>"
        )
    };
    let html = [
        forge_comment(
            1,
            "priya",
            &body("Thanks for the clear reproduction, I can confirm this."),
        ),
        forge_comment(
            2,
            "hkowal",
            &body("Same here on 0.19.2, and with closed='right' too."),
        ),
        forge_comment(
            3,
            "dvalente",
            &body("Could this also explain the flaky DST failures?"),
        ),
    ]
    .concat();
    let items = items_of(&html, "item", ISSUE);
    assert_eq!(
        items.iter().map(|i| i.title.as_str()).collect::<Vec<_>>(),
        [
            "Thanks for the clear reproduction, I can confirm this.",
            "Same here on 0.19.2, and with closed='right' too.",
            "Could this also explain the flaky DST failures?",
        ]
    );
    assert_eq!(
        links_of(&items),
        [1, 2, 3].map(|n| format!("{ISSUE}#issuecomment-{n}"))
    );
    // A heading whose only link is a timestamp is no byline (a live
    // blog's update headed "12:30"): an author link must be there.
    let doc = crate::extract::dom::parse(
        "<div class=u><h3><a href=#u1><time datetime=2025-02-10T12:30Z>12:30</time></a></h3></div>",
    );
    let rec = records_of_class(&doc, "u")[0];
    let h = (rec.start..rec.end).find(|&i| doc.is_tag(i, "h3")).unwrap();
    assert!(!posts::is_byline_heading(&doc, &rec, h));
}

/// Regression (a bug tracker's comments): an entry that only changed the
/// bug's importance and tags (its words all in a `boardCommentActivity`
/// table, beside its author and date, without a permalink) was an item
/// titled "Changed in pulsebridge (Ubuntu): importance: …". A comment
/// that also changes the status keeps its words and stays a post.
#[test]
fn an_entry_of_nothing_but_changes_is_activity() {
    let changes = "<div class=boardCommentActivity><table class=bug-activity><tr><td colspan=2>\
                   Changed in pulsebridge (Ubuntu):</td></tr><tr><td>importance:</td>\
                   <td>Medium → High</td></tr></table></div>";
    let byline = "<div class=boardCommentDetails><a href=/~dferreira>Daniel Ferreira (dferreira)</a> \
                  <time datetime=2024-03-05T08:40:02Z>on 2024-03-05</time></div>";
    let entry = |body: &str| format!("<div class=boardComment>{byline}{body}{changes}</div>");
    let only = crate::extract::dom::parse(&entry(""));
    let rec = records_of_class(&only, "boardComment")[0];
    assert!(posts::is_activity_block(&only, &rec));
    let comment = crate::extract::dom::parse(&entry(
        "<div class=boardCommentBody><div class=comment-text>Fix committed in the noble branch; \
         please test the proposed package and report back here.</div></div>",
    ));
    let rec = records_of_class(&comment, "boardComment")[0];
    assert!(!posts::is_activity_block(&comment, &rec));
}

/// Regression (a forge's issue page): the timeline interleaves lines of
/// activity ("added the bug label", "mentioned this issue" above the
/// citing issue's card, "closed this") with the comments; they were
/// items titled "bot" or by the label. Fewer than half the records, they
/// are no posts; a page of nothing but activity keeps them, and a short
/// reply whose tagline and permalink sit in different blocks is a post.
#[test]
fn lines_of_activity_among_comments_are_no_posts() {
    let body = "<p>Root cause: the end check uses &lt; where it should use &lt;=. It was \
                introduced in the refactor of the binning code last spring.</p>";
    let card = "<div class=card><div><a href=/jm/grid/issues/88>Hourly rollups missing \
                the last hour of each day</a> <span>jm/grid#88</span></div><div>Open</div></div>";
    let html = [
        forge_comment(1, "okonkwo", body),
        forge_event(
            2,
            "bot",
            "added the <a href=/labels/triage>needs-triage</a> label",
            "",
        ),
        forge_comment(3, "priya", body),
        forge_event(4, "jm", "mentioned this issue", card),
        forge_comment(5, "hkowal", body),
        forge_event(6, "priya", "closed this as completed", ""),
        forge_comment(7, "dvalente", body),
    ]
    .concat();
    let doc = crate::extract::dom::parse(&html);
    let records = records_of_class(&doc, "item");
    let plan = plan_titles(&doc, &records, &ctx());
    assert!(plan.headless);
    let lines: Vec<usize> = (0..records.len())
        .filter(|&i| plan.activity.contains(&records[i].start))
        .collect();
    assert_eq!(lines, [1, 3, 5]);
    // Nothing but activity: every line is kept.
    let only = [2, 4, 6]
        .map(|n| forge_event(n, "priya", "closed this as completed", ""))
        .concat();
    let doc = crate::extract::dom::parse(&only);
    let records = records_of_class(&doc, "item");
    let permalinks: Vec<Option<NodeId>> = records
        .iter()
        .map(|r| (r.start..r.end).find(|&i| doc.is_tag(i, "a") && posts::holds_time(&doc, i)))
        .collect();
    assert!(posts::is_activity_line(
        &doc,
        &records[0],
        permalinks[0].unwrap()
    ));
    assert!(posts::activity_lines(&doc, &records, &permalinks).is_empty());
    // Entries classed as activity are such, however they are laid out
    // (a forge's `timeline-item event` without a permalink of its own).
    let doc = crate::extract::dom::parse(
        "<div class='timeline-item event'><a href=/ttanaka>ttanaka</a> added the \
         <a href=/labels/41>kind/bug</a> label <relative-time datetime=2024-02-19T09:58:12Z>\
         Feb 19</relative-time></div><div class='timeline-item comment'><p>Words.</p></div>\
         <div class=small-action><p>closed this topic</p></div>\
         <div class='block is-key-event'><h2>Rail advice extended</h2><p>Words.</p></div>",
    );
    let classed: Vec<bool> = (0..doc.nodes.len() as NodeId)
        .filter(|&i| doc.is_tag(i, "div"))
        .map(|i| {
            let r = Record {
                start: i,
                end: doc.node(i).end,
            };
            posts::is_classed_activity(&doc, &r)
        })
        .collect();
    // A live blog's key event is a post with its headline.
    assert_eq!(classed, [true, false, true, false]);
    // A reply of one word: its tagline (author, time) is a block apart
    // from its permalink's, so it is no line of activity.
    let doc = crate::extract::dom::parse(
        "<div class=c><p class=tagline><a href=/u/ana>ana</a> 5 points</p><div>Agreed.</div>\
         <ul><li><a href=/r/t/c/1><time datetime=2025-02-10T12:30Z>1h</time></a></li></ul></div>",
    );
    let rec = records_of_class(&doc, "c")[0];
    let permalink = (rec.start..rec.end)
        .find(|&i| posts::holds_time(&doc, i))
        .unwrap();
    assert!(!posts::is_activity_line(&doc, &rec, permalink));
}

/// Regression (comment threads): a post longer than the title allows
/// was cut at 80 characters mid-sentence ("… the extra bytes per commit
/// are…", "… sqlite3 shell.…"); it is titled by its first sentence, a
/// short post by all of it.
#[test]
fn a_long_post_is_titled_by_its_first_sentence() {
    use posts::first_sentence;
    let long = "Were you running with WAL enabled? With WAL the extra bytes per commit are \
                mostly in the log, and the checkpoint does the rest.";
    assert_eq!(
        first_sentence(long),
        Some("Were you running with WAL enabled?")
    );
    // Too short to say anything alone: on to the next sentence's end.
    assert_eq!(
        first_sentence("Yes. WAL with synchronous=NORMAL and a checkpoint every 1000 pages. More."),
        Some("Yes. WAL with synchronous=NORMAL and a checkpoint every 1000 pages.")
    );
    // Abbreviations, list numbers and versions end no sentence.
    assert_eq!(
        first_sentence("Tools e.g. sqlite3 vs. duckdb on v0.19. and more words here. Then."),
        Some("Tools e.g. sqlite3 vs. duckdb on v0.19. and more words here.")
    );
    assert_eq!(
        first_sentence("Steps that worked: 1. Stop the daemon. 2. Remove the WAL."),
        Some("Steps that worked: 1. Stop the daemon.")
    );
    // Regression (a news site's comments): a number after a word ends its
    // sentence; read as a list number, the title ran on and was cut.
    assert_eq!(
        first_sentence(
            "They did look at phasing, it's in the engineering report on page 31. \
             Keeping one lane open would have stretched construction to 26 months."
        ),
        Some("They did look at phasing, it's in the engineering report on page 31.")
    );
    // Regression (a live blog): a year ends its sentence, as a list
    // number does not; the title ran on and was cut mid-sentence.
    assert_eq!(
        first_sentence(
            "Turnout is now estimated at 61%, the highest for a midterm since 1994. \
             The office credits the early-voting window."
        ),
        Some("Turnout is now estimated at 61%, the highest for a midterm since 1994.")
    );
    // A first sentence past 120 characters gives no title of its own.
    assert_eq!(first_sentence(&"word ".repeat(30)), None);
    assert_eq!(first_sentence(&format!("{}end.", "word ".repeat(30))), None);
    // Through `body_title`: a short post whole, a long one by its first
    // sentence, a long one without a short first sentence cut.
    let titles: Vec<String> = [
        "Kiln opening, Sunday. Three survivors out of eleven.".to_string(),
        long.to_string(),
        "word ".repeat(30),
    ]
    .iter()
    .map(|t| {
        let doc = crate::extract::dom::parse(&format!("<div class=p><div>{t}</div></div>"));
        let rec = records_of_class(&doc, "p")[0];
        posts::body_title(&doc, &rec, None)
    })
    .collect();
    assert_eq!(
        titles[0],
        "Kiln opening, Sunday. Three survivors out of eleven."
    );
    assert_eq!(titles[1], "Were you running with WAL enabled?");
    assert!(
        titles[2].ends_with('…') && titles[2].chars().count() <= 81,
        "{titles:?}"
    );
}

/// Regression (a live blog in German): an update without a heading opens
/// with its headline in bold, "<p><strong>Fähre nach Helgoland fährt
/// wieder</strong></p>", and was titled by that line and the report's
/// first sentence glued to it; the updates marked as key events
/// (`liveblog-entry--key-event`) were taken for a forge's activity lines
/// and left out. A bold label ("Update:") or a post that is only a bold
/// line is no headline.
#[test]
fn a_bold_line_over_a_post_is_its_headline() {
    let post = |class: &str, body: &str| {
        format!(
            "<article class=\"{class}\"><header><a href=\"#e\"><time datetime=\"2026-11-30T14:05:00+01:00\">14:05</time></a> \
             <span>Hauke Ritters</span></header><div class=body>{body}</div></article>"
        )
    };
    let report = "<p>Die Reederei hat den Fährverkehr ab Cuxhaven wieder aufgenommen, die erste Abfahrt ist um 16 Uhr.</p>";
    let cases = [
        (
            "entry",
            format!("<p><strong>Fähre nach Helgoland fährt wieder</strong></p>{report}"),
            "Fähre nach Helgoland fährt wieder",
        ),
        (
            "entry",
            format!("<p><b>Update:</b></p>{report}"),
            "Update: Die Reederei hat den Fährverkehr ab Cuxhaven wieder aufgenommen, die erste Abfahrt ist um 16 Uhr.",
        ),
        (
            "entry",
            "<p><strong>Alle Fähren fahren wieder.</strong></p>".to_string(),
            "Alle Fähren fahren wieder.",
        ),
    ];
    for (class, body, want) in cases {
        let doc = crate::extract::dom::parse(&post(class, &body));
        let rec = records_of_class(&doc, class)[0];
        assert_eq!(posts::body_title(&doc, &rec, None), want);
    }
    let key = post(
        "entry entry--key-event",
        &format!("<p><strong>Sturmflutwarnung aufgehoben</strong></p>{report}"),
    );
    let doc = crate::extract::dom::parse(&key);
    let rec = records_of_class(&doc, "entry entry--key-event")[0];
    assert!(!posts::is_classed_activity(&doc, &rec));
    // A forge's event line stays activity.
    let doc = crate::extract::dom::parse(
        "<div class=\"timeline-item event\"><a href=\"/u/ada\">ada</a> added the <span>bug</span> label</div>",
    );
    let rec = records_of_class(&doc, "timeline-item event")[0];
    assert!(posts::is_classed_activity(&doc, &rec));
}

/// Regression (a Q&A site's answers): the site's notice under a new
/// contributor's answer ("New contributor jbloggs_dev is a new contributor
/// to this site. Take care in asking for clarification, …", a
/// `div.s-notice` with `role="status"`) held more words than the short
/// answer and titled it.
#[test]
fn a_sites_notice_in_a_post_is_not_its_words() {
    let html = "<div class=answer><div class=post-text><p>Just add <code>--delay-updates</code> \
        and the problem goes away.</p></div><div class=signature>answered by \
        <a href=/users/9/jb>jb</a></div><div class=\"s-notice s-notice__info\" role=status><p>\
        <strong>New contributor</strong> jb is a new contributor to this site. Take care in asking \
        for clarification, commenting, and answering. Check out our Code of Conduct.</p></div></div>";
    let doc = crate::extract::dom::parse(html);
    let rec = records_of_class(&doc, "answer")[0];
    assert_eq!(
        posts::body_title(&doc, &rec, None),
        "Just add --delay-updates and the problem goes away."
    );
}

/// Regression (two rendered changelogs): a release linked by its
/// version ("## [2.4.1] - 2025-02-03", the brackets a reference link)
/// was titled "2.4.1" while an unlinked one beside it was "[2.3.1] -
/// 2024-11-18": a link that says no word names its heading, which titles
/// the record, without the date after it (the item's date) and the
/// brackets of an unlinked reference. A worded headline link keeps its
/// own text.
#[test]
fn a_version_link_in_a_heading_is_titled_by_the_heading() {
    let release = |v: &str, day: &str| {
        format!(
            "<div class=rel><h2 id=v{v}><a href=/compare/{v}>{v}</a> - {day}\
             <a class=headerlink href=#v{v}>¶</a></h2><ul><li>Fixed a crash on start.</li></ul></div>"
        )
    };
    let html = [
        release("2.4.1", "2025-02-03"),
        release("2.4.0", "2025-01-14"),
        "<div class=rel><h2 id=v231>[2.3.1] - 2024-11-18</h2><ul><li>Fixed a leak.</li></ul></div>"
            .to_string(),
    ]
    .concat();
    let items = items_of(&html, "rel", "https://docs.example/changelog/");
    assert_eq!(
        items.iter().map(|i| i.title.as_str()).collect::<Vec<_>>(),
        ["2.4.1", "2.4.0", "2.3.1"]
    );
    assert_eq!(
        items[0].link.as_ref().map(Url::as_str),
        Some("https://docs.example/compare/2.4.1")
    );
    let story = |n: u32| {
        format!(
            "<div class=s><h2><a href=/s/{n}>Harbour reopens after storm repairs {n}</a> \
             <span>Analysis</span></h2><p>Words.</p></div>"
        )
    };
    let items = items_of(
        &(1..=3).map(story).collect::<String>(),
        "s",
        "https://n.example/",
    );
    assert_eq!(items[0].title, "Harbour reopens after storm repairs 1");
}

/// Regression (a package index's release history): each release is a
/// card link stacking its version line ("3.1.1" and a "yanked" badge),
/// its date and the reason it was yanked; the card was titled by all of
/// it, and a badge beside a version was kept as too little to leave.
#[test]
fn a_card_link_of_stacked_lines_is_titled_by_its_first() {
    let card = |v: &str, badge: &str, more: &str| {
        format!(
            "<div class=release><a class=card href=/project/tide/{v}/><p class=version>{v} {badge}</p>\
             <p class=date><time datetime=2024-01-22T18:20:37+0000>Jan 22, 2024</time></p>{more}</a></div>"
        )
    };
    let html = [
        card("3.2.0", "", ""),
        card("3.2.0rc2", "<span class='badge badge--warning'>pre-release</span>", ""),
        card(
            "3.1.1",
            "<span class='badge badge--danger'>yanked</span>",
            "<p class=reason>Reason this release was yanked:<br>Wheel built against the wrong runtime</p>",
        ),
    ]
    .concat();
    let items = items_of(
        &html,
        "release",
        "https://pypi.example/project/tide/#history",
    );
    assert_eq!(
        items.iter().map(|i| i.title.as_str()).collect::<Vec<_>>(),
        ["3.2.0", "3.2.0rc2", "3.1.1"]
    );
}

/// Regression (a link aggregator's comment thread): each reply is a
/// `div.comment` in an `li.comments_subtree` of an `ol.comments`; the
/// comment a record's item wraps was taken for a comment listed under
/// it, so its words and permalink were not its own and the replies were
/// titled by their authors.
#[test]
fn the_comment_a_thread_item_wraps_is_its_own() {
    let comment = |id: &str, who: &str, text: &str, replies: &str| {
        format!(
            "<li class=comments_subtree><input type=checkbox><div id=c_{id} class='comment '>\
             <div class=details><div class=byline><a href=/~{who}>{who}</a> \
             <a href=/s/k3v9qa/leap#c_{id} class=comment_time><span title='2024-03-14 10:03:51 -0500'>\
             22 hours ago</span></a> | <a href=/s/k3v9qa/leap#c_{id}>link</a></div>\
             <div class=comment_text><p>{text}</p></div></div></div>{replies}</li>"
        )
    };
    let long = "and the bug lived entirely in the smearing configuration of one upstream provider";
    let html = format!(
        "<ol class=comments>{}{}</ol>",
        comment(
            "a1",
            "hwright",
            &format!("The NTP fleet was healthy the whole time, {long}."),
            &format!(
                "<ol class=comments>{}</ol>",
                comment(
                    "b2",
                    "tetrapod",
                    &format!("Same thing bit us a few years ago, {long}."),
                    ""
                )
            )
        ),
        comment(
            "c3",
            "mkessler",
            &format!("Mixing smeared sources is the one thing, {long}."),
            ""
        )
    );
    let doc = crate::extract::dom::parse(&html);
    // A thread's records: each item's nodes up to its list of replies.
    let records: Vec<Record> = records_of_class(&doc, "comments_subtree")
        .into_iter()
        .map(|li| Record {
            start: li.start + 1,
            end: doc
                .children(li.start)
                .find(|&c| doc.is_tag(c, "ol"))
                .unwrap_or(li.end),
        })
        .collect();
    let items = items_of_records(&doc, &records, "https://lobsters.example/s/k3v9qa/leap");
    assert_eq!(
        title_starts_and_paths(&items, 14)
            .iter()
            .map(|(t, _)| *t)
            .collect::<Vec<_>>(),
        ["The NTP fleet ", "Same thing bit", "Mixing smeared"]
    );
    assert_eq!(
        links_of(&items),
        ["a1", "b2", "c3"].map(|c| format!("https://lobsters.example/s/k3v9qa/leap#c_{c}"))
    );
}

/// Regression (a bug tracker's comments): each comment is signed by its
/// author's link, `itemprop=creator`, with a long text ("Launchpad
/// Janitor (janitor)"); being longer than a headline's threshold, the
/// author links read as titles and every comment was titled by its
/// author. A path of author links names posters, however long.
#[test]
fn long_author_links_are_no_headlines() {
    let comment = |n: u32, who: &str, text: &str| {
        format!(
            "<div class=boardComment><div class=details><a href=/~u{n} class='sprite person' \
             itemprop=creator>{who}</a> wrote <a href=/bug/2051877/comments/{n}>\
             <time datetime=2024-03-0{n}T10:01:13Z>on 2024-03-0{n}</time></a>:</div>\
             <div class=comment-text>{text}</div></div>"
        )
    };
    let html = [
        comment(
            1,
            "Daniel Ferreira (dferreira)",
            "I can reproduce this on two laptops after \
                   a suspend cycle with the headset connected, every time.",
        ),
        comment(
            2,
            "Rosa Lindqvist (rlindqvist)",
            "Same crash here with a different headset, \
                   so it does not look specific to one vendor's firmware.",
        ),
        comment(
            3,
            "Sebastian Haupt (shaupt)",
            "The fix is in the proposed pocket now; please \
                   test it and report back whether the crash is gone.",
        ),
    ]
    .concat();
    let items = items_of(
        &html,
        "boardComment",
        "https://bugs.example/ubuntu/+bug/2051877",
    );
    let starts: Vec<(&str, &str)> = title_starts_and_paths(&items, 12);
    assert_eq!(
        starts,
        [
            ("I can reprod", "/bug/2051877/comments/1"),
            ("Same crash h", "/bug/2051877/comments/2"),
            ("The fix is i", "/bug/2051877/comments/3"),
        ]
    );
}

/// Regression (a town's public notices, each a `<details>`): every
/// notice was titled by its file's link, "ZBA-24-03 Public Hearing Notice
/// (PDF, 212 KB)", and dated by the day its headline names. A file is no
/// headline: the summary's title is, and the "Posted" day dates it.
#[test]
fn a_notice_is_titled_by_its_summary_not_by_its_file() {
    let notice = |title: &str, posted: &str, file: &str| {
        let file = match file {
            "" => String::new(),
            f => format!(
                "<p class=files><a class=pdf href='/DocumentCenter/View/{}'>{f}</a></p>",
                f.len()
            ),
        };
        format!(
            "<details class=notice><summary>{title} <span class=notice-posted>Posted {posted}</span></summary>\
             <div class=notice-body><p>All persons interested may attend and be heard at City Hall.</p>{file}</div></details>"
        )
    };
    let html = [
        notice(
            "<span class=notice-title>Notice of Election – General Primary, March 19, 2024</span>",
            "01/31/2024",
            "Official Notice of Election (PDF)",
        ),
        notice(
            "Planning Commission: March 6 Meeting Cancelled",
            "02/20/2024",
            "Cancellation Notice (PDF, 41 KB)",
        ),
        notice(
            "<span class=notice-title>Annual Hydrant Flushing</span>",
            "02/26/2024",
            "",
        ),
    ]
    .concat();
    let items = items_of(
        &format!("<body><main>{html}</main></body>"),
        "notice",
        "https://town.example/notices/",
    );
    let got: Vec<(&str, Option<&str>, String)> = items
        .iter()
        .map(|i| {
            let day = i
                .date
                .map(|d| d.format("%Y-%m-%d").to_string())
                .unwrap_or_default();
            (i.title.as_str(), i.link.as_ref().map(Url::path), day)
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "Notice of Election – General Primary, March 19, 2024",
                Some("/DocumentCenter/View/33"),
                "2024-01-31".to_string()
            ),
            (
                "Planning Commission: March 6 Meeting Cancelled",
                Some("/DocumentCenter/View/32"),
                "2024-02-20".to_string()
            ),
            ("Annual Hydrant Flushing", None, "2024-02-26".to_string()),
        ]
    );
}

/// Regression (a university's job postings grid): each job was dated by
/// its closing day, the first date in its row. A date under a column
/// headed as a deadline ("Closing Date") is not the record's; the
/// "Posted Date" column's is.
#[test]
fn a_date_under_a_deadline_column_does_not_date_the_row() {
    let mut html = String::from(
        "<body><table class=grid><thead><tr><th>Job Title</th><th>Department</th>\
         <th>Closing Date</th><th>Posted Date</th></tr></thead><tbody>",
    );
    for (i, (closes, posted)) in [("4/15/2024", "3/8/2024"), ("3/22/2024", "3/7/2024")]
        .iter()
        .enumerate()
    {
        html.push_str(&format!(
            "<tr class=job><td><a href='/jobs/{i}'>Research Technician {i}</a></td>\
             <td>Marine Sciences</td><td>{closes}</td><td>{posted}</td></tr>"
        ));
    }
    html.push_str("</tbody></table></body>");
    let items = items_of(&html, "job", "https://careers.example/jobs/");
    let days: Vec<String> = items
        .iter()
        .map(|i| {
            i.date
                .map(|d| d.format("%Y-%m-%d").to_string())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(days, ["2024-03-08", "2024-03-07"]);
}

/// One phpBB (subSilver) post: its subject links the post's own anchor,
/// the poster's profile column sits beside the words.
fn subsilver_post(id: u32, subject: &str, rank: &str, words: &str) -> String {
    format!(
        "<table class=post id=p{id}><tr><td><a name=p{id}></a><b class=postauthor>rider{id}</b></td>\
         <td><b>Post subject:</b> <a href='#p{id}'>{subject}</a> <b>Posted:</b> Fri Mar 08, 2024 7:41 pm</td></tr>\
         <tr><td class=profile><span class=postdetails>{rank}<br><b>Joined:</b> Jan 2019<br><b>Posts:</b> 214\
         <br><b>Location:</b> Duluth, MN</span></td><td><div class=postbody>{words}</div></td></tr>\
         <tr><td class=profile><a href='#wrapheader'>Top</a></td>\
         <td><a href='./memberlist.php?mode=viewprofile&amp;u={id}'>Profile</a></td></tr></table>"
    )
}

/// Regression (a phpBB topic): each post was titled by its poster's
/// name and linked by its icon's `viewtopic.php?p=…`, and the short ones
/// by their poster's rank and join date. A link to the post's own anchor
/// (`#p512340`, the post's `id`) is its permalink; its profile column is
/// not its words.
#[test]
fn a_forum_post_is_linked_by_its_own_anchor_and_titled_by_its_words() {
    let html = [
        subsilver_post(
            512340,
            "Best chain lube for winter?",
            "Commuter",
            "My chain turns into a rusty mess every February. The dry lube washes off after two slushy rides.",
        ),
        subsilver_post(512347, "Re: Best chain lube for winter?", "Spoke Tensioner", "Wet lube, full stop."),
        subsilver_post(
            512355,
            "Re: Best chain lube for winter?",
            "New Rider",
            "+1 for wax. Never going back to drip lubes!",
        ),
    ]
    .concat();
    let items = items_of(
        &format!("<body><div id=pagecontent>{html}</div></body>"),
        "post",
        "https://forum.example/viewtopic.php?f=14&t=48213",
    );
    let got = titles_and_fragments(&items);
    assert_eq!(
        got,
        [
            (
                "My chain turns into a rusty mess every February.",
                Some("p512340")
            ),
            ("Wet lube, full stop.", Some("p512347")),
            (
                "+1 for wax. Never going back to drip lubes!",
                Some("p512355")
            ),
        ]
    );
}

/// Regression (a hotel search): two result cards among twelve in the
/// same markup were ads, marked only by a label whose class is a build
/// hash and whose accessible name says "Advertisement".
#[test]
fn a_card_whose_label_is_named_advertisement_is_an_ad() {
    let is_ad = |label: &str| {
        let card = format!(
            "<div data-testid=property-card class=c066246e13><div class=c1edfbabcb>\
             <h3><a href='/hotel/pt/avenida.html'>Hotel Avenida Palmeira</a></h3>{label}\
             <div class=abf093bdfe>Avenida da Liberdade, Lisbon</div></div></div>"
        );
        first_is_ad(&card, "div")
    };
    assert!(is_ad(
        "<span class='b30f8eadd8 f2c9c7b6c6' aria-label=Advertisement>Ad</span>"
    ));
    assert!(is_ad(
        "<span class=b30f8eadd8 aria-label=Sponsored>Sponsored</span>"
    ));
    // A label named so that says something else, or the same words
    // without the name, do not make the card an ad.
    assert!(!is_ad(
        "<span class=b30f8eadd8 aria-label=Advertisement>Genius deal</span>"
    ));
    assert!(!is_ad("<span class=b30f8eadd8>Ad</span>"));
}

/// Regression (a mailing list's archive): a thread shows only "last
/// activity 7 hours ago", exact in the span's tooltip; the tooltip was
/// passed over as a latest activity and the thread was dated by its
/// relative text, a day that moves with the clock. A record with no date
/// of its own takes the exact date of its latest activity; one with a
/// date of its own keeps it.
#[test]
fn a_thread_without_a_date_of_its_own_is_dated_by_its_latest_activity_exactly() {
    let thread = |own: &str, tooltip: &str| {
        format!(
            "<div class=thread><h4><a href='/list/%3Cmsg{}%40x%3E'>[PATCH v2] tidectl: handle empty station list</a></h4>\
             <div class=meta><a class=sender href='/~aokwu'>~aokwu</a> {own} · 1 reply · \
             <span class=last-reply>last activity <span title='{tooltip}'>7 hours ago</span></span></div></div>",
            tooltip.len()
        )
    };
    let html = [
        thread("", "2024-03-08 09:14 UTC"),
        thread("", "2024-03-07 22:40 UTC"),
        thread("started 2024-03-01", "2024-03-06 11:03 UTC"),
    ]
    .concat();
    let items = items_of(
        &format!("<body><main>{html}</main></body>"),
        "thread",
        "https://lists.example/~mkestrel/tidewater-devel/",
    );
    let days: Vec<(String, bool)> = items
        .iter()
        .map(|i| {
            let day = i.date.map(|d| d.format("%Y-%m-%d").to_string());
            (day.unwrap_or_default(), i.date_relative)
        })
        .collect();
    assert_eq!(
        days,
        [
            ("2024-03-08".to_string(), false),
            ("2024-03-07".to_string(), false),
            ("2024-03-01".to_string(), false),
        ]
    );
}

/// Regression (a council meeting's agenda): an item headed by an `h3`
/// with an `id` and no link, with its attachments below, was linked by
/// its first file; its heading's place on the page is its link (the
/// file is an attachment of it), and the agenda's numbers are no part of
/// its title.
#[test]
fn an_agenda_item_is_linked_by_its_headings_anchor_not_its_file() {
    let item = |id: &str, number: &str, title: &str, file: &str| {
        let files = match file {
            "" => String::new(),
            f => format!(
                "<ul class=attachments><li><a class='file file--pdf' href='/files/{f}'>Staff report</a> \
                 <span class=file-size>(PDF, 2.4 MB)</span></li></ul>"
            ),
        };
        format!(
            "<div class=agenda-item><h3 id='{id}' class=agenda-item__title><span class=item-number>{number}</span> {title}</h3>\
             <p class=agenda-item__report>Staff recommend that Council receive the report for information.</p>{files}</div>"
        )
    };
    let html = [
        item(
            "item-5-1",
            "5.1",
            "Food Bank – 2023 Annual Update",
            "5-1-slides.pdf",
        ),
        item("item-5-2", "5.2", "Speeding on Kestrel Drive", ""),
        item(
            "item-6-1",
            "6.1",
            "Minutes of February 27, 2024",
            "6-1-minutes.pdf",
        ),
        item(
            "item-7-1",
            "7.1",
            "Rezoning application for 1180 Larchmont Road",
            "7-1-map.pdf",
        ),
    ]
    .concat();
    let base = "https://city.example/council/meetings/2024-03-12/agenda";
    let doc = crate::extract::dom::parse(&format!("<body><main>{html}</main></body>"));
    let mut items = items_of_records(&doc, &records_of_class(&doc, "agenda-item"), base);
    crate::extract::items::numbering::without_list_numbering(&mut items);
    let got = titles_and_fragments(&items);
    assert_eq!(
        got,
        [
            ("Food Bank – 2023 Annual Update", Some("item-5-1")),
            ("Speeding on Kestrel Drive", Some("item-5-2")),
            ("Minutes of February 27, 2024", Some("item-6-1")),
            (
                "Rezoning application for 1180 Larchmont Road",
                Some("item-7-1")
            ),
        ]
    );
}

/// Regression (a busy wiki's recent changes, 59 edits of 26 pages): so
/// few distinct titles made the title path look like a repeated action
/// link, and the edits of one page shared its link (26 of 59 were left).
/// Each edit's "diff" tells them apart; a name repeated over every line
/// (the user) stays no title.
#[test]
fn edits_of_a_few_pages_are_each_linked_by_their_diff() {
    let pages = ["Mill_Lane", "Quay", "Mill_Lane", "Ferry_Row", "Mill_Lane"];
    let pages = pages
        .iter()
        .chain(&["Quay", "Gloamwood", "Mill_Lane", "Quay", "Ferry_Row"]);
    let html: String = pages
        .enumerate()
        .map(|(i, page)| change_line(i, page, Some(48300 - i as u32)))
        .collect();
    let items = items_of_lis(
        &format!("<ul>{html}</ul>"),
        "https://wiki.example.org/wiki/Special:RecentChanges",
    );
    let links: Vec<&str> = items
        .iter()
        .map(|it| it.link.as_ref().map_or("", Url::as_str))
        .collect();
    assert_eq!(items.len(), 10);
    assert_eq!(items[0].title, "Mill Lane");
    assert_eq!(items[6].title, "Gloamwood");
    for (i, link) in links.iter().enumerate() {
        assert!(link.ends_with(&format!("&diff={}", 48300 - i)), "{link}");
    }
}

/// Regression (a launch board): each launch links its name and, taken
/// out of the keyboard's order (`tabindex=-1`), its longer tagline to
/// the same page; the taglines were the titles.
#[test]
fn a_repeat_link_skipped_by_the_keyboard_is_no_title() {
    let launch = |slug: &str, name: &str, tagline: &str, skip: &str| {
        format!(
            "<section class=item><a href='/posts/{slug}' tabindex=-1 aria-hidden=true>\
             <img src='/l/{slug}.png' alt='{name}'></a><div><div><a href='/posts/{slug}'>{name}</a></div>\
             <a href='/posts/{slug}'{skip}>{tagline}</a><div><a href='/topics/saas'>SaaS</a></div></div></section>"
        )
    };
    let board = |skip: &str| -> String {
        [
            launch(
                "tallyweave",
                "Tallyweave",
                "Turn messy spreadsheets into tidy dashboards",
                skip,
            ),
            launch(
                "fernwick",
                "Fernwick",
                "A calm, offline-first habit tracker for iOS",
                skip,
            ),
            launch(
                "mossbox",
                "Mossbox",
                "Encrypted shared folders for families and friends",
                skip,
            ),
        ]
        .concat()
    };
    let titles = |html: &str| -> Vec<String> {
        items_of(html, "item", "https://www.launchboard.example/")
            .into_iter()
            .map(|it| it.title)
            .collect()
    };
    assert_eq!(
        titles(&board(" tabindex=-1")),
        ["Tallyweave", "Fernwick", "Mossbox"]
    );
    // In the keyboard's order, the longer link is the headline.
    assert_eq!(
        titles(&board(""))[0],
        "Turn messy spreadsheets into tidy dashboards"
    );
}

/// Regression (a docs page's "What's new"): an entry's heading, a date,
/// is a link to its release notes; the entry was linked by the heading's
/// place on the page (its `¶` anchor) instead. An entry whose heading
/// links nowhere keeps its anchor; "Learn more" is no heading's link.
#[test]
fn a_date_heading_that_links_its_notes_links_its_entry() {
    let entry = |id: &str, heading: &str| {
        format!(
            "<div class=entry><h3 id={id}>{heading}<a href='#{id}' class=hash-link \
             aria-label='Direct link'>\u{200b}</a></h3>\
             <p>The CLI is now a single static binary and starts four times faster.</p>\
             <p><a href='/platform/cli'>Learn more</a></p></div>"
        )
    };
    let html = [
        entry(
            "november-10-2026",
            "<a href='/platform/release-notes/2026-11-10'>November 10, 2026</a>",
        ),
        entry("october-27-2026", "October 27, 2026"),
    ]
    .concat();
    let items = items_of(&html, "entry", "https://docs.example/platform/whats-new");
    let links: Vec<&str> = items
        .iter()
        .map(|it| it.link.as_ref().map_or("", Url::as_str))
        .collect();
    assert_eq!(
        links,
        [
            "https://docs.example/platform/release-notes/2026-11-10",
            "https://docs.example/platform/whats-new#october-27-2026"
        ]
    );
}

/// Regressions (a review page, a shop's results): a review's month of
/// visit ("Oct 2026 • Couples") came before the day it was written and
/// dated it; a result was dated by its delivery promise ("FREE delivery
/// Wed, Mar 13"). A month is still the date of a record with no day.
#[test]
fn a_day_beats_a_month_and_a_delivery_dates_nothing() {
    let day = |html: &str| {
        items_of(html, "r", "https://reviews.example/")
            .into_iter()
            .map(|it| it.date.map(|d| d.date_naive().to_string()))
            .collect::<Vec<_>>()
    };
    let review = |month: &str, written: &str| {
        format!(
            "<div class=r><div><a href='/u/ines'>Ines</a></div>\
             <div class=t><a href='/review/1'>Grilled sardines worth the climb</a></div>\
             <div class=m>{month}</div><p>We found this place by accident.</p>\
             <div class=w>{written}</div></div>"
        )
    };
    let written = "Written 7 March 2024";
    assert_eq!(
        day(&review("February 2024", written)),
        [Some("2024-03-07".to_owned())]
    );
    assert_eq!(
        day(&review("February 2024", "Helpful?")),
        [Some("2024-02-01".to_owned())]
    );
    let visit = "<span>Date of visit:</span> 2 February 2024";
    assert_eq!(
        day(&review(visit, written)),
        [Some("2024-03-07".to_owned())]
    );
    let result = |delivery: &str| {
        format!(
            "<div class=r><h2><a href='/dp/B0C1'>Aria 2 Wireless Noise Cancelling Headphones</a></h2>\
             <span class=price>$79.99</span><div><span>{delivery}</span><span>Wed, Mar 13</span></div></div>"
        )
    };
    assert_eq!(day(&result("FREE delivery ")), [None]);
    assert_eq!(day(&result("Arrives ")), [None]);
    // "Wed, Mar 13" is this year's: 13 March 2024 is a Wednesday.
    assert_eq!(day(&result("Listed ")), [Some("2024-03-13".to_owned())]);
    // An amendment's day is not the record's (a tender's "Corrigendum
    // issued 29/11/2026" before its Published column).
    assert_eq!(day(&result("Corrigendum issued ")), [None]);
    // Regressions (a shop's "Or fastest delivery Tomorrow, Nov 30", a
    // listing's "Open house: Sat, Dec 5" above "Listed Nov 18, 2026"): a
    // label that ends with a deadline's word, and an open house, date
    // nothing; a label that only holds such a word in its middle does.
    assert_eq!(day(&result("Or fastest delivery ")), [None]);
    assert_eq!(day(&result("Open house: ")), [None]);
    assert_eq!(
        day(&result("Photos of the delivery van from ")),
        [Some("2024-03-13".to_owned())]
    );
    let listing = "<div class=r><div class=b><span>Open house: Sat, Dec 5 · 1–3pm</span></div>\
        <a href='/home/77-quarry-rd'>77 Quarry Rd #4, Cedar Falls</a><p>Listed Nov 18, 2023</p></div>";
    assert_eq!(day(listing), [Some("2023-11-18".to_owned())]);
}

/// Regression (a code forge's releases page): each release's tag name
/// shows in large type (`span.f1 > a`), named by a heading kept for
/// screen readers (`h2.sr-only`), and again in its side column as a
/// muted link to its tree (`Link--muted`), which came first and took the
/// entries' links. A muted link is no headline. (The fixture
/// `forge_releases_hidden_headings` shows the heading naming the tag.)
#[test]
fn a_muted_tree_link_is_no_title_of_a_release() {
    let release = |tag: &str, day: u32, author: &str| {
        format!(
            "<section class=release aria-labelledby=hd-{day}><h2 class=sr-only id=hd-{day}>{tag}</h2>\
             <div class=side><local-time datetime='2026-11-{day}T11:04:51Z'>Nov {day}</local-time>\
             <a class=color-fg-muted href='/{author}'><img src='/a/{author}.png' alt='@{author}'> {author}</a>\
             <a class='Link Link--muted' href='/loomdata/loom/tree/{tag}' title='{tag}'>{tag}</a></div>\
             <div class=main><span class='f1 text-bold'>\
             <a class='Link--primary Link' href='/loomdata/loom/releases/tag/{tag}'>{tag}</a></span>\
             <div class=markdown-body><h2>Highlights</h2><p>This release brings a spill-to-disk hash \
             join and faster scans (<a href='/loomdata/loom/pull/{day}12'>#{day}12</a>).</p></div>\
             <div class=contributors><a class=avatar href='/ada-lind'><img src='/a/ada.png' alt='@ada-lind'></a>\
             <a class=avatar href='/bo-oduya'><img src='/a/bo.png' alt='@bo-oduya'></a>\
             <p><a class=Link--primary href='/ada-lind'>ada-lind</a>, <a class=Link--primary href='/bo-oduya'>bo-oduya</a>, \
             <a class=Link--primary href='/{author}'>{author}</a>, and nadia-haddad</p></div></div></section>"
        )
    };
    let html = [
        release("v4.3.0-rc.1", 27, "mirela-dobos"),
        release("v4.2.0", 18, "kwame-asante"),
        release("v4.1.3", 12, "sanna-lindroos"),
        release("v4.1.2", 5, "tomas-kral"),
    ]
    .concat();
    let items = items_of(
        &html,
        "release",
        "https://forge.example/loomdata/loom/releases",
    );
    let got = titles_and_links(&items);
    assert_eq!(
        got,
        [
            (
                "v4.3.0-rc.1",
                "https://forge.example/loomdata/loom/releases/tag/v4.3.0-rc.1"
            ),
            (
                "v4.2.0",
                "https://forge.example/loomdata/loom/releases/tag/v4.2.0"
            ),
            (
                "v4.1.3",
                "https://forge.example/loomdata/loom/releases/tag/v4.1.3"
            ),
            (
                "v4.1.2",
                "https://forge.example/loomdata/loom/releases/tag/v4.1.2"
            ),
        ]
    );
}

/// Regression (a marketplace's results grid): full-width blocks in the
/// grid's own slots, a "customers also bought" carousel and the pager
/// (`role="navigation"`), were items. A post without a thumbnail, or a
/// sticky one, misses a class or two of the list's own and stays.
#[test]
fn full_width_slots_and_the_pager_in_a_results_grid_are_no_items() {
    let result = |n: u32| {
        format!(
            "<div class='sg-col-4-of-24 s-result-item s-asin sg-col-4-of-16 sg-col s-widget-spacing-small'>\
             <img class=s-image src='/i/{n}.jpg' alt=''><h2><a href='/dp/B0{n}'>Aria {n} Wireless \
             Noise Cancelling Headphones</a></h2><span class=price>$7{n}.99</span></div>"
        )
    };
    let slot = "<div class='sg-col-20-of-24 s-result-item s-flex-full-width sg-col'>\
        <h2>Customers also bought</h2><ul><li><a href='/dp/C01'>Halden HX-1 Headphones</a></li>\
        <li><a href='/dp/C02'>Kettleby K9 Over-Ear</a></li><li><a href='/dp/C03'>Pellow P5</a></li></ul></div>";
    let pager = "<div role=navigation aria-label=pagination class='sg-col-20-of-24 s-result-item \
        sg-col-4-of-24 s-asin sg-col'><a href='/s?page=2'>2</a> <a href='/s?page=2'>Next</a></div>";
    let grid = format!(
        "<div>{}{slot}{}{pager}</div>",
        (1..=4).map(result).collect::<String>(),
        (5..=10).map(result).collect::<String>()
    );
    let doc = crate::extract::dom::parse(&grid);
    let Some(list) = (0..doc.nodes.len() as NodeId).find(|&i| doc.is_tag(i, "div")) else {
        panic!("no grid");
    };
    let records = records_where(&doc, |i| doc.node(i).parent == Some(list));
    assert_eq!(records.len(), 12);
    let dropped: Vec<usize> = interruptions(&doc, &records)
        .iter()
        .enumerate()
        .filter(|&(_, &x)| x)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(dropped, [4, 11]);
    let post = |classes: &str| {
        format!(
            "<article class='post type-post status-publish format-standard category-news {classes}'>\
             <h2><a href='/p'>A post</a></h2></article>"
        )
    };
    let blog = [
        post("has-post-thumbnail"),
        post("has-post-thumbnail sticky"),
        post(""),
        post("has-post-thumbnail"),
        post("has-post-thumbnail"),
    ]
    .concat();
    let doc = crate::extract::dom::parse(&blog);
    let records = records_where(&doc, |i| doc.is_tag(i, "article"));
    assert_eq!(interruptions::other_slots(&doc, &records), [false; 5]);
    // Regression (a wiki's recent changes): a new page's line carries the
    // variants of the edits' classes (`mw-changeslist-new` for
    // `mw-changeslist-edit`), and was dropped as a slot of another kind.
    let change = |kind: &str| {
        format!(
            "<li class='mw-line-even mw-changeslist-line-not-watched mw-changeslist-{kind} \
             mw-changeslist-src-mw-{kind}'><a href='/wiki/P'>P</a></li>"
        )
    };
    let changes = ["edit", "edit", "new", "edit", "edit"].map(change).concat();
    let doc = crate::extract::dom::parse(&format!("<ul>{changes}</ul>"));
    let records = records_where(&doc, |i| doc.is_tag(i, "li"));
    assert_eq!(interruptions::other_slots(&doc, &records), [false; 5]);
}

#[test]
fn a_bracketed_label_is_told_from_a_bracketed_title() {
    for t in ["[CITATION][C]", "[PDF]", " [BOOK][B] ", "[Solved]"] {
        assert!(is_bracketed_label(t), "{t:?}");
    }
    for t in [
        "[]",
        "[deleted]x",
        "[Draft] Notes",
        "[RFC 9110]",
        "CITATION",
        "[a][]",
    ] {
        assert!(!is_bracketed_label(t), "{t:?}");
    }
}

#[test]
fn an_identifier_is_told_from_a_headline_and_a_version() {
    for t in [
        "arXiv:2611.18042",
        "#48213",
        " 2611.18042 ",
        "RFC9110",
        "HB 1204",
        "SJR 4",
        "US 2026/0123456 A1",
    ] {
        assert!(is_identifier(t), "{t:?}");
    }
    for t in [
        "v4.3.0-rc.1",
        "v2.10.1",
        "Release 2026",
        "arXiv 2611.18042",
        "Windows2000Server",
        "#123",
        "iPhone 15",
        "TOP Tips",
        "HB 1204 and SB 362",
        "Q3 2026",
    ] {
        assert!(!is_identifier(t), "{t:?}");
    }
}

/// Regression (a patent search's results, "Priority 2024-05-03 • Filed
/// 2025-05-01 • Published 2026-11-12"): each was dated by its priority
/// date. A priority or filing date dates a record only when no other day
/// does (a court filing dated by "Filed" alone).
#[test]
fn a_priority_or_filing_date_gives_way_to_the_publication() {
    let day = |dates: &str| {
        let html = format!(
            "<div class=r><h3><a href='/patent/US1'>Thermal runaway detector</a></h3>\
             <p>A detector for battery modules.</p><h4 class=dates>{dates}</h4></div>"
        );
        items_of(&html, "r", "https://patents.example/")
            .into_iter()
            .map(|it| it.date.map(|d| d.date_naive().to_string()))
            .collect::<Vec<_>>()
    };
    let published = "Priority 2024-05-03 <span>•</span> Filed 2025-05-01 <span>•</span> \
                     Published <span class=pubdate>2026-11-12</span>";
    assert_eq!(day(published), [Some("2026-11-12".to_owned())]);
    assert_eq!(day("Filed 11/12/2026"), [Some("2026-11-12".to_owned())]);
    assert_eq!(
        day("Priority date: 2024-05-03"),
        [Some("2024-05-03".to_owned())]
    );
}

/// Regression (a research group's publications): each citation quotes
/// its title in plain text and links only "PDF", "DOI", "Code"; the
/// records were titled "Code" and "PDF". A quoted title of a record whose
/// links are labels titles it, and its summary keeps the citation whole.
#[test]
fn a_citations_quoted_title_titles_it() {
    let html = "<ol>\
        <li class=pub>J. Kim, <b>R. Okafor</b>, and <b>L. Marchetti</b>. “Calibrated Uncertainty for \
        Multi-Robot Task Allocation,” <i>Proc. ICML</i>, 2026. [<a href=/papers/kim.pdf>PDF</a>] \
        [<a href=https://doi.org/10.1/x>DOI</a>] [<a href=https://git.example/kim>Code</a>]</li>\
        <li class=pub><b>S. Haldane</b>. “Can Language Models Repair Their Own Plans?” <i>TMLR</i>, \
        2026. [<a href=/papers/haldane.pdf>PDF</a>] [<a href=https://git.example/h>Code</a>]</li>\
        <li class=pub>A. Ferreira. Untitled note on robots, 2026. [<a href=/papers/f.pdf>PDF</a>] \
        [<a href=https://git.example/f>Code</a>]</li></ol>";
    let items = items_of(html, "pub", "https://lab.example/publications/");
    assert_eq!(
        titles_and_links(&items)[..2],
        [
            (
                "Calibrated Uncertainty for Multi-Robot Task Allocation",
                "https://lab.example/papers/kim.pdf"
            ),
            (
                "Can Language Models Repair Their Own Plans?",
                "https://lab.example/papers/haldane.pdf"
            ),
        ]
    );
    assert!(
        items[0].summary.contains("“Calibrated Uncertainty"),
        "{:?}",
        items[0].summary
    );
    // No quotes, and every link a label the citations repeat: the
    // record's own words title it, without the bracket of its labels.
    assert_eq!(
        items[2].title,
        "A. Ferreira. Untitled note on robots, 2026."
    );
}

/// Regression (an obituaries page): cards were dated by their life dates
/// or by "Died …". A span of years and a death give way to the day the
/// record was published, and date it when nothing else does.
#[test]
fn life_dates_and_a_death_give_way_to_the_publication() {
    let day = |lines: &str| {
        let html = format!(
            "<div class=o><h3><a href='/obituaries/ada-quill'>Ada Quill</a></h3>{lines}</div>"
        );
        items_of(&html, "o", "https://ledger.example/")
            .into_iter()
            .map(|it| it.date.map(|d| d.date_naive().to_string()))
            .collect::<Vec<_>>()
    };
    let published = "<p>Published in The Ledger on Nov. 26, 2026</p>";
    for life in [
        "<p>August 21, 1970 – November 20, 2026</p>",
        "<p>Died November 19, 2026</p>",
        "<p>Born 1938</p>",
    ] {
        assert_eq!(
            day(&format!("{life}{published}")),
            [Some("2026-11-26".to_owned())],
            "{life}"
        );
    }
    assert_eq!(
        day("<p>Died November 19, 2026</p>"),
        [Some("2026-11-19".to_owned())]
    );
    // An event's days lie in one year: its start dates it.
    assert_eq!(
        day("<p>November 27, 2026 – December 2, 2026</p>"),
        [Some("2026-11-27".to_owned())]
    );
}

/// Regression (a bill tracker): the committee each bill's last action
/// names, longer and worded, was taken for the bills' title link over
/// their numbers. The link whose address holds the record's own `id`
/// (`tr#row-HB1204` linking `/bills/2026R/HB1204`) is its title link.
#[test]
fn the_link_to_the_records_own_id_is_its_title_link() {
    let committees = ["Finance", "Finance", "Education", "Finance"];
    let rows: String = committees
        .iter()
        .enumerate()
        .map(|(n, c)| {
            format!(
                "<tr class=bill id=row-HB12{n}4><td><a href=/bills/HB12{n}4>HB 12{n}4</a></td>\
                 <td><span class=bill-title>Relating to harbour dredging fees, part {n}</span></td>\
                 <td>Last action: 11/1{n}/2026 — Referred to <a href=/committees/{c}>Committee \
                 on {c} and Revenue</a></td></tr>"
            )
        })
        .collect();
    let items = items_of(
        &format!("<table>{rows}</table>"),
        "bill",
        "https://leg.example/",
    );
    assert_eq!(
        titles_and_links(&items)[..2],
        [
            (
                "Relating to harbour dredging fees, part 0",
                "https://leg.example/bills/HB1204"
            ),
            (
                "Relating to harbour dredging fees, part 1",
                "https://leg.example/bills/HB1214"
            ),
        ]
    );
}

/// A heading's title ends before the date it ends with after a spaced
/// separator; a date that is the whole heading, or part of its words,
/// stays.
#[test]
fn a_heading_ends_its_title_before_its_date() {
    let undated = |t: &str| titles::undated_title(t.to_string(), &ctx());
    assert_eq!(undated("2.8.0 - 2026-11-12"), "2.8.0");
    assert_eq!(undated("[2.3.1] - 2024-11-18"), "2.3.1");
    assert_eq!(
        undated("Version 5.12.1 — 24 November 2026"),
        "Version 5.12.1"
    );
    assert_eq!(undated("Version 5.12.1 —"), "Version 5.12.1");
    assert_eq!(undated("Release 3.0 | March 5, 2026"), "Release 3.0");
    // A withdrawn release's label after its date goes with the date.
    assert_eq!(undated("2.5.1 - 2026-06-03 [YANKED]"), "2.5.1");
    for kept in [
        "Best of 2023",
        "2026-11-12",
        "Sci-Fi - A Short History",
        "Budget 2027 - what changes",
        "v4.3.0-rc.1",
    ] {
        assert_eq!(undated(kept), kept);
    }
    // Brackets go only around one reference.
    assert_eq!(
        undated("[links] and [refs] - 2026-11-12"),
        "[links] and [refs]"
    );
}

/// Regression (an auction's search results): "NEW LISTING", in a span
/// classed as no badge, was glued before the title ("NEW LISTINGOlympus
/// OM-1n …"). A leading label in capitals is a badge; a model number
/// or a two-letter word is not. Regression (another auction's results):
/// "New Listing", not in capitals, was glued the same way; a label of
/// words the title's capital is glued to is a badge too.
#[test]
fn a_leading_label_in_capitals_is_a_badge() {
    let item = |n: u32, label: &str| {
        format!(
            "<li class=s-item><a href=/itm/{n}><div class=s-item__title><span role=heading>\
             <span class=LIGHT_HIGHLIGHT>{label}</span>Olympus camera body {n}, light seals replaced</span>\
             </div></a><span>US $129.00</span></li>"
        )
    };
    let html = format!(
        "<ul>{}{}{}{}</ul>",
        item(1, "NEW LISTING"),
        item(2, "AI"),
        item(3, "OM-1n"),
        item(4, "New Listing")
    );
    let items = items_of(&html, "s-item", "https://lots.example/sch/");
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Olympus camera body 1, light seals replaced",
            "AIOlympus camera body 2, light seals replaced",
            "OM-1nOlympus camera body 3, light seals replaced",
            "Olympus camera body 4, light seals replaced"
        ]
    );
}

/// Regression (an official gazette's notices): each notice was dated by
/// a day its summary names ("until 5:00 pm on 18 December 2026") before
/// its "Published 27 November 2026" line. A date inside a sentence gives
/// way to a date line; it still dates a record that has no other.
#[test]
fn a_date_in_a_sentence_gives_way_to_a_date_line() {
    let notice = |n: u32, published: &str| {
        format!(
            "<li class=notice><a href=/notices/{n}>Development application {n}, Harrow Lane</a>\
             <p>Submissions may be lodged with the Council until 5:00 pm on 18 December 2026.</p>\
             {published}</li>"
        )
    };
    let html = format!(
        "<ol>{}{}</ol>",
        notice(1, "<span>Published 27 November 2026</span>"),
        notice(2, "")
    );
    let items = items_of(&html, "notice", "https://gazette.example/issues/47");
    let day = |i: usize| items[i].date.map(|d| d.date_naive().to_string());
    assert_eq!(day(0).as_deref(), Some("2026-11-27"));
    assert_eq!(day(1).as_deref(), Some("2026-12-18"));
}

/// Regression (a school district's announcements accordion): each
/// announcement, an `h2` around a `button#…-trigger` that holds its
/// title, a "Posted 11/24/2026" span and a chevron, was titled "Meal
/// Pickup SitesPosted 11/24/2026" and linked to the button's id. The
/// title is read inside the button without the date line before the
/// chevron (also when it says when it was updated); the record's own
/// place links it, not the control's.
#[test]
fn an_accordion_entry_is_titled_inside_its_button_and_linked_by_its_place() {
    let entry = |n: u32, title: &str| {
        format!(
            "<div class='accordion__item' id=announcement-{n}><h2><button id=announcement-{n}-trigger \
             aria-controls=announcement-{n}-panel><span class=accordion__title>{title}</span>\
             <span class=accordion__date>Posted <time datetime=2026-11-2{n}>11/2{n}/2026</time> \
             <span>&middot; Updated 11/28/2026</span></span>\
             <svg aria-hidden=true><path d='M7 8'/></svg></button></h2>\
             <div id=announcement-{n}-panel hidden><p>Free meals for any child during the break.</p></div></div>"
        )
    };
    let html = format!(
        "<div>{}{}</div>",
        entry(4, "Thanksgiving Break Meal Pickup Sites"),
        entry(1, "Winter Coat Drive at All Elementary Schools")
    );
    let items = items_of(
        &html,
        "accordion__item",
        "https://district.example/announcements",
    );
    assert_eq!(
        titles_and_links(&items),
        [
            (
                "Thanksgiving Break Meal Pickup Sites",
                "https://district.example/announcements#announcement-4"
            ),
            (
                "Winter Coat Drive at All Elementary Schools",
                "https://district.example/announcements#announcement-1"
            )
        ]
    );
}

/// Regression (a standards tracker): each draft's cell is its file name
/// link and, under it, its title in bold; the drafts were titled by their
/// file names. A name with words after it in plain text (a package and
/// its description) stays the title.
#[test]
fn a_file_name_link_is_titled_by_the_bold_line_under_it() {
    let row = |n: u32, after: &str| {
        format!(
            "<tr class=draft><td><a href=/doc/draft-ruiz-widget-{n}/>draft-ruiz-widget-{n}-03</a>\
             <br>{after}</td><td>2024-03-0{n}</td></tr>"
        )
    };
    let html = format!(
        "<table>{}{}{}</table>",
        row(1, "<b>Widget Transport over QUIC</b>"),
        row(2, "<b>Unreliable Widget Delivery Using Datagrams</b>"),
        row(3, "Widget transport, the third of them")
    );
    let items = items_of(&html, "draft", "https://tracker.example/doc/search/");
    assert_eq!(
        titles_and_links(&items),
        [
            (
                "Widget Transport over QUIC",
                "https://tracker.example/doc/draft-ruiz-widget-1/"
            ),
            (
                "Unreliable Widget Delivery Using Datagrams",
                "https://tracker.example/doc/draft-ruiz-widget-2/"
            ),
            (
                "draft-ruiz-widget-3-03",
                "https://tracker.example/doc/draft-ruiz-widget-3/"
            )
        ]
    );
    assert!(is_slug("draft-ruiz-widget-transport-03"));
    for name in [
        "left-pad",
        "Widget-Transport-Draft",
        "v4.3.0-rc.1",
        "2024-03-01",
    ] {
        assert!(!is_slug(name), "{name}");
    }
}

/// Regression (a town council's meetings): each row is its day and the
/// labels every row repeats ("Agenda", "Minutes", "Watch"); a row with a
/// link of its own beside them ("Draft minutes") was titled and linked by
/// it, and the others by their longest label. A row whose first link and
/// most links are labels is titled by its day (before a badge after it)
/// and linked by its first link.
#[test]
fn a_meeting_row_of_labels_is_titled_by_its_day() {
    let row = |day: u32, badge: &str, minutes: &str| {
        format!(
            "<tr class=meeting><td>Tue {day} Feb 2024 7:00pm{badge}</td>\
             <td><a href=/m/agenda-{day}.pdf>Agenda</a></td><td>{minutes}</td>\
             <td><a href=/webcast/{day}>Watch</a></td></tr>"
        )
    };
    let minutes = |day: u32| format!("<a href=/m/minutes-{day}.pdf>Minutes</a>");
    let html = format!(
        "<table>{}{}{}{}</table>",
        row(27, "", "<a href=/m/draft-27.pdf>Draft minutes</a>"),
        row(
            20,
            " <span class=badge>Extraordinary meeting</span>",
            &minutes(20)
        ),
        row(13, "", &minutes(13)),
        row(6, "", &minutes(6))
    );
    let items = items_of(&html, "meeting", "https://council.example/meetings");
    let got: Vec<(&str, &str)> = titles_and_links(&items);
    assert_eq!(
        got,
        [
            (
                "Tue 27 Feb 2024 7:00pm",
                "https://council.example/m/agenda-27.pdf"
            ),
            (
                "Tue 20 Feb 2024 7:00pm",
                "https://council.example/m/agenda-20.pdf"
            ),
            (
                "Tue 13 Feb 2024 7:00pm",
                "https://council.example/m/agenda-13.pdf"
            ),
            (
                "Tue 6 Feb 2024 7:00pm",
                "https://council.example/m/agenda-6.pdf"
            )
        ]
    );
}

/// Regression (a project's hand-written news page): an item whose `h3`
/// holds no link but an `<a name>` anchor is linked to that place.
#[test]
fn a_heading_is_placed_by_its_named_anchor() {
    let item = |name: &str, title: &str| {
        format!(
            "<div class=news><h3><a name={name}></a>{title}</h3><p><i>2024-02-0{}</i></p>\
             <p>Details are on the <a href=security.html>security page</a> for everyone.</p></div>",
            title.len() % 9
        )
    };
    let html = format!(
        "<div>{}{}{}</div>",
        item("sec-2024-02", "Security fix: heap overflow in the splitter"),
        item("maint", "New maintainer for the formatter"),
        item("git", "Repository moved to new hosting")
    );
    let items = items_of(&html, "news", "https://project.example/news.html");
    assert_eq!(
        titles_and_links(&items),
        [
            (
                "Security fix: heap overflow in the splitter",
                "https://project.example/news.html#sec-2024-02"
            ),
            (
                "New maintainer for the formatter",
                "https://project.example/news.html#maint"
            ),
            (
                "Repository moved to new hosting",
                "https://project.example/news.html#git"
            )
        ]
    );
}

/// Regression (a project's news page): its last `h3`, "Older news" over
/// links to yearly pages, was one more news item. A record holding, beside
/// its heading, only links named by years or numbers is an index; one
/// with words outside its links, or links named by pictures, is not.
#[test]
fn an_index_of_years_is_no_record() {
    let whole = |html: &str| {
        let doc = crate::extract::dom::parse(html);
        let r = Record {
            start: 0,
            end: doc.nodes.len() as NodeId,
        };
        interruptions::is_archive_index(&doc, &r)
    };
    assert!(whole(
        "<h3>Older news</h3><p><a href=n-2025.html>2025</a> | <a href=n-2024.html>2024</a> | \
         <a href=n-old.html>2012–2022</a></p>"
    ));
    assert!(!whole(
        "<h3>Release 2</h3><p>Fixes <a href=/i/1234>1234</a> and <a href=/i/1240>1240</a>.</p>"
    ));
    assert!(!whole(
        "<h3>Harbour photos</h3><a href=/p/1><img src=1.jpg></a><a href=/p/2><img src=2.jpg></a>"
    ));
}

/// Regression (a city's vacancies table): a full-width promotion row
/// among the vacancies (`tr.vacancy-table__promo`, one cell across all
/// columns) links a page of its own, so it was a vacancy. Such a row,
/// without the class the rows carry, is an interlude; a spanning row
/// classed as they are stays.
#[test]
fn a_full_width_banner_row_is_an_interlude() {
    let row = |n: u32| {
        format!(
            "<tr class='row vacancy'><td><a href=/jobs/{n}>Planning officer number {n}</a></td>\
             <td>HR-{n}</td><td>Planning</td><td>01/03/2024</td></tr>"
        )
    };
    let banner = |class: &str| {
        format!(
            "<tr class='{class}'><td colspan=4><p>Featured apprenticeship: business administration</p>\
             <a href=/jobs/apprenticeships>Find out more about apprenticeships</a></td></tr>"
        )
    };
    for (class, dropped) in [("row promo", true), ("row vacancy", false)] {
        let html = format!(
            "<table>{}{}{}{}{}</table>",
            row(1),
            row(2),
            banner(class),
            row(3),
            row(4)
        );
        let doc = crate::extract::dom::parse(&html);
        let records = records_where(&doc, |i| doc.is_tag(i, "tr"));
        let flags = interludes(&doc, &records);
        assert_eq!(flags, [false, false, dropped, false, false], "{class}");
    }
    // Unclassed rows: a spanning row with a class of its own is apart (a
    // commit log's closing `tr.nohover` "[...]" to its next page), an
    // unclassed one is not.
    let commit = |n: u32| {
        format!(
            "<tr><td>2026-11-{n:02}</td><td><a href='/repo/commit/?id={n}'>Fix the parser for case {n}</a></td>\
             <td>Maren Solberg</td><td>2</td><td>-2/+{n}</td></tr>"
        )
    };
    for (class, dropped) in [(" class='nohover'", true), ("", false)] {
        let rows: String = (1..=4).map(commit).collect();
        let html = format!(
            "<table>{rows}<tr{class}><td colspan='5'><a href='/repo/log/?ofs=50'>[...]</a></td></tr></table>"
        );
        let doc = crate::extract::dom::parse(&html);
        let records = records_where(&doc, |i| doc.is_tag(i, "tr"));
        let flags = interludes(&doc, &records);
        assert_eq!(flags, [false, false, false, false, dropped], "{class}");
    }
}

/// Regression (a newsletter's issue): a sponsor's item among the
/// articles, `article.item.item--sponsor`, was one of them once the
/// issue's "Quick bits" joined the list (the classes most records carry,
/// which told it apart, were no longer most). A class part "sponsor"
/// marks an ad as "sponsored" does; "sponsors" (a conference's page of
/// them) does not.
#[test]
fn an_item_classed_as_a_sponsors_is_an_ad() {
    let item = |class: &str| {
        format!(
            "<article class='{class}'><h3><a href=https://logs.example/>Stop grepping \
             production logs</a></h3><p>Free for your first 10 GB.</p></article>"
        )
    };
    assert!(first_is_ad(&item("item item--sponsor"), "article"));
    assert!(!first_is_ad(&item("item item--sponsors"), "article"));
    assert!(!first_is_ad(&item("item"), "article"));
}

/// Regression (a classic WordPress theme's home page): an aside has no
/// title, only the `h3.entry-format` "Aside" label that the link posts
/// carry under their `h2` titles; it was titled "Aside" and linked to its
/// place on the page. A heading below every title heading of the group
/// titles no record: the aside is titled by its words and linked by its
/// date's permalink.
#[test]
fn a_post_format_label_below_the_titles_is_no_title() {
    let post = |n: u32, head: &str, words: &str| {
        format!(
            "<article id=post-{n} class='post hentry'><header class=entry-header><hgroup>{head}</hgroup></header>\
             <div class=entry-content><p>{words}</p></div><footer class=entry-meta>\
             <a href=/2026/11/{n}/ rel=bookmark><time datetime=2026-11-{n:02}>November {n}, 2026</time></a> \
             <span class=author><a href=/author/marama/>Marama</a></span></footer></article>"
        )
    };
    let html = [
        post(
            21,
            "<h2 class=entry-title><a href=/2026/11/21/seed-swap/>The winter seed swap is on</a></h2>",
            "Bring envelopes and labels.",
        ),
        post(
            22,
            "<h2 class=entry-title><a href=https://seeds.example/directory/>Seed Savers' Directory</a></h2>\
             <h3 class=entry-format>Link</h3>",
            "The directory is up for the season.",
        ),
        post(
            23,
            "<h3 class=entry-format>Aside</h3>",
            "Kererū on the washing line again this morning. Fat, green and unbothered.",
        ),
        post(
            24,
            "<h2 class=entry-title><a href=/2026/11/24/beans/>Beans, at last</a></h2>",
            "The dwarf beans are up.",
        ),
    ]
    .concat();
    let items = items_of_token(&html, "post", "https://garden.example/");
    assert_eq!(
        titles_and_links(&items)[2],
        (
            "Kererū on the washing line again this morning. Fat, green and unbothered.",
            "https://garden.example/2026/11/23/"
        )
    );
    assert_eq!(
        titles_and_links(&items)[1].0,
        "Seed Savers' Directory",
        "a link post keeps its title"
    );
}

/// Regression (a blog aggregator): an untitled post, `div.entry.untitled`
/// with an empty title link, was titled by its author's name: "untitled"
/// was read as a class naming a title, so every link of the post stood
/// in one. It is titled by its words and linked by its permalink.
#[test]
fn an_untitled_post_is_titled_by_its_words_not_its_author() {
    let entry = |class: &str, title: &str, slug: &str| {
        format!(
            "<div class='{class}'><div class=person-info><a href=https://dario.example/ title='Dario Fenn'>\
             <img class=face src=/heads/d.png alt=''><br>Dario Fenn</a></div>\
             <div class=post><h3 class=post-title><a href=https://dario.example/{slug}>{title}</a></h3>\
             <div class=post-contents><p>Quick one: the nightly bundles are back. The signing key expired.</p></div>\
             <p class=byline>Posted by <a href=https://dario.example/>Dario Fenn</a> at 13:58 \
             <a class=permalink href=https://dario.example/{slug} title=Permalink>#</a></p></div></div>"
        )
    };
    let html = [
        entry("entry", "Nightly bundles, a post-mortem", "notes/1"),
        entry("entry untitled", "", "notes/2"),
        entry("entry", "Signing keys and where to find them", "notes/3"),
    ]
    .concat();
    let items = items_of_token(&html, "entry", "https://planet.example/");
    assert_eq!(
        titles_and_links(&items)[1],
        (
            "Quick one: the nightly bundles are back. The signing key expired.",
            "https://dario.example/notes/2"
        )
    );
}

/// Regression (a company's press releases): a release filed as a PDF was
/// titled by its date line ("2026年10月30日お知らせ", a day and a category),
/// which says less than the file's own name; and the file's note "(PDF
/// 2.4MB)", a `span` inside the link before its icon, ended the title. A
/// notice's summary that says more than its file still titles it.
#[test]
fn a_file_link_says_more_than_a_date_line_and_loses_its_size_note() {
    let release = |head: &str, file: &str, name: &str, note: &str| {
        format!(
            "<li class=release><h4>{head}</h4><a href=/pdf/{file}.pdf>{name}<span class=fileSize>{note}</span>\
             <img src=/img/icon_pdf.gif alt=PDF></a></li>"
        )
    };
    let html = format!(
        "<ul>{}{}{}</ul>",
        release(
            "2026年10月30日<span class=cate>お知らせ</span>",
            "move",
            "本社事務所移転のお知らせ",
            "(PDF 318KB)"
        ),
        release(
            "2026年11月20日<span class=cate>IR</span>",
            "results",
            "第2四半期決算説明会資料",
            "(PDF 2.4MB)"
        ),
        release(
            "Planning Commission: March 6 Meeting Cancelled",
            "notice",
            "Cancellation Notice",
            "(PDF, 41 KB)"
        ),
    );
    let items = items_of(&html, "release", "https://kotobuki.example/news/");
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "本社事務所移転のお知らせ",
            "第2四半期決算説明会資料",
            "Planning Commission: March 6 Meeting Cancelled"
        ]
    );
}

/// Regression (a crowdfunding project's updates): a month's separator,
/// "November 2026" over a rule in a `div role=separator` among the update
/// cards, was an update dated the 1st.
#[test]
fn a_separator_between_records_is_no_record() {
    let html = "<div class=updates>\
        <div role=separator><span>November 2026</span><span class=rule></span></div>\
        <article class=update><h2><a href=/posts/3>Production samples are in!</a></h2><time>Nov 24, 2026</time></article>\
        <div role=separator><span>October 2026</span><span class=rule></span></div>\
        <article class=update><h2><a href=/posts/2>Firmware 0.9 beta for the dimmer</a></h2><time>Oct 21, 2026</time></article>\
        </div>";
    let doc = crate::extract::dom::parse(html);
    let records = records_where(&doc, |i| {
        doc.node(i).parent.is_some_and(|p| {
            doc.element(p)
                .and_then(|e| e.attr("class"))
                .is_some_and(|c| c == "updates")
        })
    });
    assert_eq!(interruptions(&doc, &records), [true, false, true, false]);
}

/// A shop's customer review: headed by its title link when `title` is
/// given, else only by its date line linking its page.
fn review(id: &str, title: Option<&str>, day: &str, body: &str) -> String {
    let page = format!("/gp/customer-reviews/{id}/");
    let head = title.map_or(String::new(), |t| {
        format!("<a class='review-title' href='{page}'><span>{t}</span></a>")
    });
    let date = match title {
        Some(_) => {
            format!("<span class=review-date>Reviewed in the United Kingdom on {day}</span>")
        }
        None => format!(
            "<span class=review-date><a class=review-date-link href='{page}'>Reviewed in the \
             United Kingdom on {day}</a></span>"
        ),
    };
    format!(
        "<div class=review id={id}><a class=profile href='/gp/profile/{id}'><span>Marguerite</span></a>\
         <div class=row>{head}</div>{date}<span class=verified>Verified Purchase</span>\
         <div class=review-body><span>{body}</span></div>\
         <span class=actions><button>Helpful</button> <a href='/report/{id}'>Report</a></span></div>"
    )
}

/// Regression (a product's reviews): a review without a headline links
/// its page from its date line, and was titled "Reviewed in the United
/// Kingdom on 3 October 2026" and left undated (the date was read as part
/// of its title). It is titled by its words and dated by that line.
#[test]
fn an_untitled_review_is_titled_by_its_words_and_dated_by_its_date_line() {
    let body = "Bought this for my mum, who has arthritis, and she finds it far easier to lift \
                than her old one. The handle stays cool.";
    let html = [
        review("R1", Some("Quiet and quick"), "12 October 2026", body),
        review("R2", None, "3 October 2026", body),
        review("R3", Some("Five Stars"), "30 September 2026", body),
        review(
            "R4",
            Some("Lid sticks after a month"),
            "2 September 2026",
            body,
        ),
    ]
    .concat();
    let items = items_of(&html, "review", "https://shop.example/dp/B0CK7/");
    assert_eq!(
        titles_and_links(&items)[..2],
        [
            (
                "Quiet and quick",
                "https://shop.example/gp/customer-reviews/R1/"
            ),
            (
                "Bought this for my mum, who has arthritis, and she finds it far easier to lift \
                 than her old one.",
                "https://shop.example/gp/customer-reviews/R2/"
            ),
        ]
    );
    let day = items[1].date.map(|d| d.date_naive().to_string());
    assert_eq!(day.as_deref(), Some("2026-10-03"));
}

/// A chat message: sender and time link to its `#msg` anchor, then
/// `body`.
fn chat_message(id: u32, body: &str) -> String {
    format!(
        "<div class=msg id=msg-{id}><div class=msg-header><a class=sender href='/u/{id}'>Jun \
         Watanabe</a> <a class=time href='#msg-{id}'><time datetime='2026-03-02T16:{id}:44Z'>4:{id} \
         PM</time></a></div><div class=msg-content>{body}</div></div>"
    )
}

/// Regression (a chat archive): a message ending in a link preview card
/// was titled by the card ("tsubame engineering blog Migrating a
/// 400-crate monorepo…"), and one introducing a log by the log ("Here's
/// the relevant bit of the log: thread 'remote_cache…"). A message is
/// titled by its sender's words: not the page it previews, nor a code
/// block it quotes.
#[test]
fn a_message_is_titled_by_its_words_not_its_preview_card_or_code_block() {
    let html = [
        chat_message(
            10,
            "<div class=msg-body><p>Wrote up how we migrated our monorepo to the remote cache. \
             Might be useful: <a href='https://blog.example/m/'>https://blog.example/m/</a></p></div>\
             <div class=unfurl><div class=unfurl-site>tsubame engineering blog</div>\
             <a class=unfurl-title href='https://blog.example/m/'>Migrating a 400-crate monorepo</a>\
             <p class=unfurl-desc>How we cut cold CI builds from 41 minutes to 9, and the three \
             things that surprised us along the way.</p></div>",
        ),
        chat_message(
            20,
            "<div class=msg-body><p>Here's the relevant bit of the log:</p><pre><code>thread \
             'remote_cache::evicts_oldest' panicked at crates/fern-cache/src/lru.rs:212:9: \
             assertion failed</code></pre></div>",
        ),
        chat_message(
            30,
            "<div class=msg-body><p>Has anyone tried the new cache with a network filesystem \
             like NFS or SMB? Our CI runners mount the workspace over NFS.</p></div>",
        ),
    ]
    .concat();
    let items = items_of(&html, "msg", "https://chat.example/archive/build/");
    let titles: Vec<&str> = items.iter().map(|it| it.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Wrote up how we migrated our monorepo to the remote cache.",
            "Here's the relevant bit of the log:",
            "Has anyone tried the new cache with a network filesystem like NFS or SMB?",
        ]
    );
}

/// Regression (a council's meetings): eleven meetings are "Planning
/// Committee" and nine "Full Council", each linked to its own page; the
/// meeting names were taken for labels, and those rows were titled by
/// their date cells ("Tue 8 Dec 2026") and two linked to their minutes.
/// A column of links to pages of their own saying several things, none
/// in half the rows, titles its rows; one label in every row does not.
#[test]
fn meeting_names_that_repeat_still_title_their_meetings() {
    let row = |mid: u32, day: &str, name: &str| {
        format!(
            "<tr class=row><td class=date><time datetime='2026-11-{day}'>Tue {day} Nov 2026</time></td>\
             <td class=name><a class=meeting href='meeting/?mid={mid}'>{name}</a></td>\
             <td class=docs><a class=doc href='/documents/s{mid}/Agenda.pdf'>Agenda (PDF)</a></td></tr>"
        )
    };
    let names = [
        "Planning Committee",
        "Full Council",
        "Planning Committee",
        "Finance Committee",
        "Planning Committee",
        "Full Council",
    ];
    let html = format!(
        "<table><tbody>{}</tbody></table>",
        names
            .iter()
            .enumerate()
            .map(|(k, n)| row(4130 - k as u32, &format!("{:02}", 20 - k), n))
            .collect::<String>()
    );
    let items = items_of(&html, "row", "https://tc.example/meetings/");
    let got: Vec<(&str, &str)> = titles_and_links(&items);
    assert_eq!(
        got[0],
        (
            "Planning Committee",
            "https://tc.example/meetings/meeting/?mid=4130"
        )
    );
    assert_eq!(got.iter().map(|(t, _)| *t).collect::<Vec<_>>(), names);
}

/// Regression (an agency's press releases): a release linking its PDF
/// ends its title link with the file's type and size in a span of its
/// own, after an icon, without brackets ("… published PDF, 0.9 MB").
#[test]
fn a_bare_file_note_ends_no_title() {
    let note =
        "<span class=release__filemeta><svg aria-hidden=true width=14></svg>PDF, 0.9 MB</span>";
    assert_eq!(
        headline_title(&format!("Corporate plan 2025 to 2030 published {note}")),
        "Corporate plan 2025 to 2030 published"
    );
    assert_eq!(
        headline_title("Annual report <span class=years>2025 to 2026</span>"),
        "Annual report 2025 to 2026"
    );
}

/// Regression (a TV channel's day): a slot's access badges list an "AD"
/// (`li.badge--ad` titled "Audio described"); eight programmes were
/// dropped as ads. A badge titled as an ad, or untitled, still is one.
#[test]
fn an_ad_badge_titled_audio_described_is_no_ad() {
    let slot = |badge: &str| {
        format!(
            "<li class=slot><time datetime=2026-12-02T07:25:00Z>07:25</time><div><h3>\
             <a href=/programmes/zoo/3/>Our Little Zoo</a></h3><p>Series 1, Episode 3</p>\
             <ul class=badges><li class='badge badge--s' title=Subtitles>S</li>{badge}</ul></div></li>"
        )
    };
    for (badge, ad) in [
        (
            "<li class='badge badge--ad' title='Audio described'>AD</li>",
            false,
        ),
        (
            "<li class='badge badge--ad' title='Advertisement'>AD</li>",
            true,
        ),
        ("<li class='badge badge--ad'>AD</li>", true),
    ] {
        let doc = crate::extract::dom::parse(&slot(badge));
        let rec = records_of_class(&doc, "slot")[0];
        assert_eq!(is_advertising(&doc, &rec), ad, "{badge}");
    }
}

/// A status of a microblog's public timeline, in its markup: the
/// relative time links the permalink, the display name the poster's page.
fn status(handle: &str, id: u64, body: &str) -> String {
    format!(
        "<article class=status><div class=info><a class=time href='/@{handle}/{id}'>\
         <time datetime='2026-11-30T21:14:02.000Z' title='Nov 30, 2026, 21:14'>3h</time></a>\
         <a class=display-name href='/@{handle}'><img src='/av/{handle}.png' alt=''>\
         <span><bdi><strong>{handle} of the harbour</strong></bdi> <span>@{handle}</span></span></a></div>\
         <div class=content>{body}</div><div class=bar><button>Reply</button><button>Boost</button></div></article>"
    )
}

/// Regression (a microblog's public timeline): the display names
/// ("Marisol Quay @marisol", to `/@marisol`) were taken as the titles and
/// links of the statuses, and a poster's second status was dropped as a
/// repeat. The permalinks extend the posters' pages (`/@marisol/1177…`):
/// the statuses are titled by their words and linked by their times.
#[test]
fn a_status_is_titled_by_its_words_not_its_posters_name() {
    let html = [
        status(
            "tides",
            117708415565824107,
            "<p>High water at Marren Point this morning is at 06:42, with a height of 4.8 metres.</p>",
        ),
        status(
            "marisol",
            117708355469312114,
            "<p>Finally finished restoring the old harbour master's logbook from 1911! Photos soon.</p>",
        ),
        status(
            "tides",
            117708074450944121,
            "<p>Low water at Marren Point this afternoon is at 12:57, with a height of 0.9 metres.</p>",
        ),
    ]
    .concat();
    let items = items_of(&html, "status", "https://toot.harbour.example/public/local");
    assert_eq!(
        titles_and_links(&items),
        [
            (
                "High water at Marren Point this morning is at 06:42, with a height of 4.8 metres.",
                "https://toot.harbour.example/@tides/117708415565824107"
            ),
            (
                "Finally finished restoring the old harbour master's logbook from 1911!",
                "https://toot.harbour.example/@marisol/117708355469312114"
            ),
            (
                "Low water at Marren Point this afternoon is at 12:57, with a height of 0.9 metres.",
                "https://toot.harbour.example/@tides/117708074450944121"
            ),
        ]
    );
}

/// Regression (the same timeline): a status ending in its hashtags was
/// titled with them ("Low tide this evening #photography #seascape"), and
/// a poll's options (in `label`s) outweighed the words asking it.
#[test]
fn a_status_title_leaves_out_its_hashtags_and_poll_options() {
    let tag =
        |t: &str| format!("<a class='mention hashtag' href='/tags/{t}'>#<span>{t}</span></a>");
    let poll = |opts: &[&str]| {
        let lis: String = opts
            .iter()
            .map(|o| format!("<li><label><input type=radio name=v><span>{o}</span></label></li>"))
            .collect();
        format!(
            "<div class=poll><ul>{lis}</ul><div><button>Vote</button> <span>142 people</span></div></div>"
        )
    };
    let html = [
        status(
            "ruairi",
            117707779080192135,
            &format!(
                "<p>Low tide at Marren Point this evening, with the sand bars out past the old pier {} {}</p>",
                tag("photography"),
                tag("seascape")
            ),
        ),
        status(
            "juneo",
            117707695063040142,
            &format!(
                "<p>Quick poll for the book club: what should we read in January?</p></div>{}<div>",
                poll(&[
                    "The Lantern Keepers by R. Osei",
                    "Salt and Iron (the long one)",
                    "A Year of Small Boats",
                    "Something with dragons, please",
                ])
            ),
        ),
        status(
            "bramdw",
            117707512112200002,
            &format!(
                "<p>Morning walk along the harbour wall, cold hands and warm coffee from the kiosk {}</p>",
                tag("Marren")
            ),
        ),
    ]
    .concat();
    let items = items_of(&html, "status", "https://toot.harbour.example/public/local");
    let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Low tide at Marren Point this evening, with the sand bars out past the old pier",
            "Quick poll for the book club: what should we read in January?",
            "Morning walk along the harbour wall, cold hands and warm coffee from the kiosk",
        ]
    );
    // Tags that are all it says stay its title.
    assert_eq!(
        without_trailing_hashtags("#caturday #cats"),
        "#caturday #cats"
    );
    assert_eq!(
        without_trailing_hashtags("We're #1 again #go"),
        "We're #1 again"
    );
}

/// Regression (a news board's comment page, one table of rows): a
/// "[flagged]" comment, and a "[deleted]" one that kept its own
/// permalink (`item?id=…` of `tr#…`), were items titled so.
#[test]
fn a_flagged_or_deleted_comment_among_headless_ones_is_no_item() {
    let row = |id: u32, user: &str, text: &str| {
        format!(
            "<tr class='athing comtr' id={id}><td><span class=comhead>{user}\
             <span class=age title='2026-11-30T18:27:10'><a href='item?id={id}'>8 hours ago</a></span>\
             <a class=togg href='javascript:void(0)'>[–]</a></span>\
             <div class=commtext>{text}</div></td></tr>"
        )
    };
    let user = |u: &str| format!("<a href='user?id={u}' class=hnuser>{u}</a> ");
    let html = format!(
        "<table class=comment-tree>{}{}{}{}</table>",
        row(
            4501180,
            &user("ivo"),
            "Compensating controls are the unsung heroes of legacy maintenance work."
        ),
        row(4501858, "", "[deleted]"),
        row(4502745, &user("troll_77"), "[flagged]"),
        row(
            4502896,
            &user("okonkwo"),
            "The trick is to keep the videos short and name them after the task."
        ),
    );
    let doc = crate::extract::dom::parse(&html);
    let records = records_where(&doc, |i| doc.is_tag(i, "tr"));
    let dates = DateContext::utc_at(2026, 12, 1, 2);
    let plan = plan_titles(&doc, &records, &dates);
    assert!(plan.headless);
    let stubs: Vec<bool> = records
        .iter()
        .map(|r| is_deleted_entry(&doc, r, plan.headless))
        .collect();
    assert_eq!(stubs, [false, true, true, false]);
    // Outside a headless group, a stub linking a page stays an entry.
    assert!(!is_deleted_entry(&doc, &records[2], false));
}

/// Regression (an auction site's sold results): the list opens with a
/// template slot hidden from assistive technology (`li.s-item
/// aria-hidden=true`, "Shop on eBay", filled by script), which was an
/// item. A carousel hiding most of its slides keeps them all.
#[test]
fn a_few_slots_hidden_from_assistive_technology_are_no_records() {
    let item = |n: u32, hidden: bool| {
        let aria = if hidden { " aria-hidden=true" } else { "" };
        format!(
            "<li class=s-item{aria}><a class=s-item__link href=/itm/{n}><span role=heading>\
             Camera body {n} with lens, tested</span></a><span>Sold Nov 2{n}, 2026</span></li>"
        )
    };
    let list = |hidden: &[bool]| {
        let lis: String = hidden
            .iter()
            .enumerate()
            .map(|(n, &h)| item(n as u32, h))
            .collect();
        let doc = crate::extract::dom::parse(&format!("<ul>{lis}</ul>"));
        let records = records_where(&doc, |i| doc.is_tag(i, "li"));
        interruptions(&doc, &records)
    };
    let placeholder = [true, false, false, false, false, false];
    assert_eq!(list(&placeholder), placeholder);
    let carousel = [false, true, true, true, true, false];
    assert_eq!(list(&carousel), [false; 6]);
}

/// Regression (a photo group's pool): each tile's "by <user>" link,
/// whose text its address's slug matches, titled the photo. The title
/// link holds the tile's `data-photo-id`, the record's own identifier.
#[test]
fn a_link_holding_the_records_data_id_is_its_title() {
    let tile = |id: u32, title: &str, user: &str, slug: &str| {
        format!(
            "<div class=tile data-photo-id=5339{id}><div class=bar>\
             <a class=title href=/photos/{slug}/5339{id}/>{title}</a>\
             <a class=attribution href=/photos/{slug}/>by {user}</a></div></div>"
        )
    };
    let html = [
        tile(
            101,
            "Low tide at Merrow Sands",
            "Ines Calder",
            "ines_calder",
        ),
        tile(
            102,
            "Breakwater, blue hour",
            "Sasha Prylova",
            "sasha_prylova",
        ),
        tile(103, "DSC_0412", "Petrel Works", "petrel_works"),
        tile(104, "Gull on a piling", "Tobiah Rook", "tobiah_rook"),
    ]
    .concat();
    let items = items_of(&html, "tile", "https://photos.example/groups/harbour/pool/");
    assert_eq!(
        titles_and_links(&items)[..2],
        [
            (
                "Low tide at Merrow Sands",
                "https://photos.example/photos/ines_calder/5339101/"
            ),
            (
                "Breakwater, blue hour",
                "https://photos.example/photos/sasha_prylova/5339102/"
            ),
        ]
    );
    assert_eq!(items[2].title, "DSC_0412");
}

/// Regression (a weather service's warnings): each card's first `time`
/// is the start of the warning's validity ("Valid: From … to …", a
/// definition list), not the day it was issued.
#[test]
fn a_validity_term_labels_its_dates_as_no_publication() {
    let html = "<article class=card><h4><a href=/warnings/w1>Yellow warning of wind</a></h4>\
        <dl><dt>Valid:</dt><dd>From <time datetime=2026-11-30T06:00:00Z>06:00 Mon 30 Nov</time> \
        to <time datetime=2026-11-30T21:00:00Z>21:00 Mon 30 Nov</time></dd></dl>\
        <p>Issued at <time datetime=2026-11-29T10:52:00Z>10:52 on Sun 29 Nov 2026</time></p></article>";
    let item = item_of(html, "article");
    assert_eq!(
        item.date.map(|d| d.to_rfc3339()).as_deref(),
        Some("2026-11-29T10:52:00+00:00")
    );
    // A term of its own dates the record as before.
    let html = "<article class=card><h4><a href=/notices/n1>Road closure notice</a></h4>\
        <dl><dt>Published:</dt><dd><time datetime=2026-11-20>20 Nov 2026</time></dd></dl></article>";
    let item = item_of(html, "article");
    assert_eq!(
        item.date.map(|d| d.date_naive().to_string()).as_deref(),
        Some("2026-11-20")
    );
}

/// Regression (a food agency's recalls): "Updated: 22 November" before
/// "Published: 20 November" dated the notice by its update. The update
/// still dates a record that shows nothing else ("Updated <time>about 4
/// hours ago</time>", exact in its attribute).
#[test]
fn an_update_dates_a_record_only_when_nothing_else_does() {
    let html = "<article><h3><a href=/alerts/a1>Bakery recalls rye loaf</a></h3>\
        <p><span>Updated:</span> <time datetime=2026-11-22T09:00:00Z>22 November 2026</time></p>\
        <p><span>Published:</span> <time datetime=2026-11-20T09:00:00Z>20 November 2026</time></p></article>";
    let item = item_of(html, "article");
    assert_eq!(
        item.date.map(|d| d.date_naive().to_string()).as_deref(),
        Some("2026-11-20")
    );
    let html = "<article><h3><a href=/models/m1>harbour-7b-instruct</a></h3>\
        <span>Updated <time datetime=2024-03-09T06:12:09Z>about a day ago</time></span></article>";
    let item = item_of(html, "article");
    assert_eq!(
        item.date.map(|d| d.to_rfc3339()).as_deref(),
        Some("2024-03-09T06:12:09+00:00")
    );
    assert!(!item.date_relative);
}

/// Regression (a revision history): each revision's link is its time
/// stamp ("14:02, 27 November 2026"), which titled it and, as a date in
/// a headline, was not read: every revision was undated.
#[test]
fn a_title_that_is_a_time_stamp_dates_its_record() {
    let html = "<ul><li><a href='/w/index.php?oldid=118245512'>14:02, 27 November 2023</a> \
        <a href=/wiki/User:Marisol>Marisol</a> <span class=comment>(History: added refit)</span></li></ul>";
    let item = item_of(html, "li");
    assert_eq!(
        item.date.map(|d| d.date_naive().to_string()).as_deref(),
        Some("2023-11-27")
    );
    // A year in a headline is still part of it.
    let html = "<ul><li><a href=/p/best>Best of 2023 in harbour photos</a> <span>4 Mar 2024</span></li></ul>";
    let item = item_of(html, "li");
    assert_eq!(
        item.date.map(|d| d.date_naive().to_string()).as_deref(),
        Some("2024-03-04")
    );
}

/// Regression (a business's reviews): the owner's reply nested in a
/// review is longer than the review, and titled it.
#[test]
fn a_review_is_titled_by_its_words_not_the_owners_reply() {
    let review = |n: u32, words: &str, reply: &str| {
        let reply = match reply {
            "" => String::new(),
            r => format!(
                "<div class='owner-reply business-owner-reply'><p>Lin H.</p><p>Business Owner</p>\
                 <p>10/13/2026</p><p class=comment>{r}</p></div>"
            ),
        };
        format!(
            "<li class=review><a href=/user_details?userid=u{n}>Reviewer {n}</a>\
             <span>10/12/2026</span><p class=comment>{words}</p>\
             <a href='/biz/noodles?hrid=r{n}'>10/12/2026</a>{reply}</li>"
        )
    };
    let html = format!(
        "<ul>{}{}{}</ul>",
        review(
            1,
            "I really wanted to love this place. Our order was wrong twice and nobody came by.",
            "Oksana, I am truly sorry. An allergy mistake is the most serious thing that can happen in our kitchen and we failed you twice; we retrained the team."
        ),
        review(
            2,
            "Best hand-pulled noodles in town. The broth is rich and the staff were lovely all evening.",
            ""
        ),
        review(
            3,
            "Good value lunch set, though the dumplings arrived cold. Would come back for the noodles.",
            ""
        ),
    );
    let items = items_of_lis(&html, "https://reviews.example/biz/noodles");
    assert_eq!(items[0].title, "I really wanted to love this place.");
}

/// Regression (a map project's changesets): "Closed <abbr title=…>3 days
/// ago</abbr>" was a deadline's label, and the changeset undated. A passed
/// deadline dates a record that shows nothing else; a deadline to come
/// dates nothing, and a record's own date still wins.
#[test]
fn a_passed_deadline_dates_a_record_that_shows_nothing_else() {
    let row = |label: &str, day: &str, more: &str| {
        format!(
            "<li><a href=/changeset/1588>Added bus stops along Harbour Road</a> \
             {label} <abbr title='{day}'>some days ago</abbr>{more}</li>"
        )
    };
    let date = |html: &str| item_of(html, "li").date.map(|d| d.date_naive().to_string());
    assert_eq!(
        date(&row("Closed", "7 March 2024", "")).as_deref(),
        Some("2024-03-07")
    );
    assert_eq!(date(&row("Closes", "17 March 2024", "")), None);
    let published = " <span>Published <time datetime=2024-02-01>1 Feb</time></span>";
    assert_eq!(
        date(&row("Closed", "7 March 2024", published)).as_deref(),
        Some("2024-02-01")
    );
}

/// Regression (a preprint listing whose authors differ in every entry):
/// the list of authors was the one path of distinct link texts, and its
/// first name titled and linked every entry. A link in a list of authors
/// is no headline; a post's single poster link (avatar and name to one
/// page) is still read as before.
#[test]
fn a_list_of_authors_is_no_headline_beside_an_identifier_link() {
    let names = [
        ("Ingrid Valtonen", "valtonen_i_1"),
        ("Noor Al-Haddad", "haddad_n_1"),
        ("Mateusz Grabowski", "grabowski_m_1"),
        ("Tomasz Wierzbicki", "wierzbicki_t_1"),
        ("Shreya Venkataraman", "venkataraman_s_1"),
    ];
    let entry = |(n, (name, page)): (usize, &(&str, &str))| {
        format!(
            "<div class=entry><a href=/abs/2611.1{n:04}>arXiv:2611.1{n:04}</a> [<a href=/pdf/2611.1{n:04}>pdf</a>]\
             <div class=list-title><span class=descriptor>Title:</span> Tidal heating of close-in planet {n} around cool stars</div>\
             <div class=list-authors><span class=descriptor>Authors:</span> \
             <a href=/a/{page}>{name}</a>, <a href=/a/ortiz_r_{n}>Rafael Ortiz</a></div></div>"
        )
    };
    let html: String = (1..).zip(&names).map(entry).collect();
    let items = items_of(
        &html,
        "entry",
        "https://preprints.example/list/astro-ph.EP/new",
    );
    assert_eq!(
        titles_and_links(&items)[..2],
        [
            (
                "Tidal heating of close-in planet 1 around cool stars",
                "https://preprints.example/abs/2611.10001"
            ),
            (
                "Tidal heating of close-in planet 2 around cool stars",
                "https://preprints.example/abs/2611.10002"
            ),
        ]
    );
}

/// Regression (a court's opinions): "Approved for publication <time>" in
/// a badge before the case name dated the opinion by its approval, days
/// after its decision. An approval dates a record only when nothing
/// else does.
#[test]
fn an_approval_dates_a_record_only_when_nothing_else_does() {
    let html = "<table><tr><td>A-3301-23</td><td><span class=badge>Approved for publication \
        <time datetime=2026-11-30>11/30/2026</time></span> <a href=/opinions/A-3301-23.pdf>Oyelaran v. Board of Review</a></td>\
        <td><time datetime=2026-11-24T12:00:00Z>11/24/2026</time></td></tr></table>";
    let item = item_of(html, "tr");
    assert_eq!(
        item.date.map(|d| d.date_naive().to_string()).as_deref(),
        Some("2026-11-24")
    );
    let html = "<ul><li><a href=/minutes/m7>Minutes of the October meeting</a> \
        <span>Approved <time datetime=2026-11-12>12 November 2026</time></span></li></ul>";
    let item = item_of(html, "li");
    assert_eq!(
        item.date.map(|d| d.date_naive().to_string()).as_deref(),
        Some("2026-11-12")
    );
}

/// Regression (a seminar series whose day cells span their talks): a
/// "No seminar – reading week" row, its day cell beside one cell across
/// the other columns and a link to the week's programme, was a talk.
#[test]
fn a_note_row_beside_its_day_cell_is_an_interlude() {
    let talk = |n: u32, day: Option<&str>| {
        let day = day.map_or(String::new(), |d| format!("<td rowspan=2>{d}</td>"));
        format!(
            "<tr class='seminar__row is-past'>{day}<td>16:00</td><td><a href=https://people.example/~s{n}>Speaker {n}</a></td>\
             <td><a href=/seminars/talk-{n}>Talk number {n} on error correction</a></td><td>MB 2.14</td></tr>"
        )
    };
    let note = "<tr class='seminar__row seminar__row--nosem'><td>Tue 27 Oct 2026</td>\
        <td colspan=4><em>No seminar – reading week.</em> See the <a href=/events/reading-week/>programme</a>.</td></tr>";
    let html = format!(
        "<table>{}{}{note}{}{}</table>",
        talk(1, Some("Tue 13 Oct 2026")),
        talk(2, None),
        talk(3, Some("Tue 3 Nov 2026")),
        talk(4, None)
    );
    let doc = crate::extract::dom::parse(&html);
    let records = records_where(&doc, |i| doc.is_tag(i, "tr"));
    assert_eq!(
        interludes(&doc, &records),
        [false, false, true, false, false]
    );
}

/// Regression (a Japanese city's news list): "（PDF：245KB）" after a
/// title, in full-width brackets, was kept as part of it.
#[test]
fn a_full_width_file_note_is_no_part_of_a_title() {
    assert!(links::is_file_note("（PDF：245KB）"));
    assert!(links::is_file_note("(PDF: 245KB)"));
    assert!(!links::is_file_note("（令和8年度）"));
    let html = "<ul><li><time datetime=2026-11-27>2026年11月27日</time> \
        <a href=/files/calendar_r8.pdf>令和8年度 粗大ごみ収集カレンダー<span class=file-info>（PDF：245KB）</span></a></li></ul>";
    assert_eq!(
        item_of(html, "li").title,
        "令和8年度 粗大ごみ収集カレンダー"
    );
    // Regression (round 68): the note as bare text after the file's icon.
    let html = "<ul><li><time datetime=2026-11-27>2026年11月27日</time> \
        <a href=/files/kouhou_r0812.pdf>広報12月号を掲載しました<img src=/i/pdf.gif alt='' class=iconPdf>（PDF：8,412KB）</a></li></ul>";
    assert_eq!(item_of(html, "li").title, "広報12月号を掲載しました");
}

/// Regression (a link aggregator's comments): a comment of one line
/// without a full stop, 83 characters long, was cut at 80 with an
/// ellipsis; it titles itself whole. A longer one is still cut.
#[test]
fn a_line_without_a_sentence_end_titles_itself_whole() {
    let line =
        "lol the comments section on the newspaper site is a lot less friendly than this one";
    let long = "word ".repeat(30);
    let words = [
        "Fair enough, a rota with three people is more than most councils ever get.",
        line,
        long.trim(),
        "Boring and cheap is the dream, and it took the council two years to see it.",
    ];
    let html: String = words
        .iter()
        .enumerate()
        .map(|(n, w)| {
            format!(
                "<li class=comment><a class=comment-user href=/users/7/jb>jb</a> \
                 <a class=comment-link href=/comment/88125{n}>Mar {}, 2024 at 9:12</a><p>{w}</p></li>",
                n + 1
            )
        })
        .collect();
    let items = items_of_lis(&format!("<ul>{html}</ul>"), "https://lemmy.example/post/1");
    assert_eq!(items.len(), 4);
    assert_eq!(items[1].title, line);
    assert!(items[2].title.ends_with('…'), "{:?}", items[2].title);
}

/// A deadline its label says has passed, written as text with its year
/// ("Closed 3 October 2026"), dates a record that shows nothing else; a
/// published day still comes first, and a day to come dates nothing.
#[test]
fn a_passed_deadline_in_text_dates_a_record_that_shows_nothing_else() {
    let day = |html: &str| item_of(html, "li").date.map(|d| d.date_naive().to_string());
    let closed = "<ul><li><a href=/consultations/harbour-access>Harbour access review</a> \
        <span>Closed 3 October 2023</span></li></ul>";
    assert_eq!(day(closed).as_deref(), Some("2023-10-03"));
    let both = "<ul><li><a href=/consultations/harbour-access>Harbour access review</a> \
        <span>Closed 3 October 2023</span> · <span>Published 8 August 2023</span></li></ul>";
    assert_eq!(day(both).as_deref(), Some("2023-08-08"));
    let open = "<ul><li><a href=/consultations/tides>Tide gauges review</a> \
        <span>Closes 12 January 2027</span></li></ul>";
    assert_eq!(day(open), None);
}

/// Regression (a Vietnamese news section): each teaser's headline and its
/// excerpt, all of it a link, both link the article whose id the teaser
/// carries (`data-id`); the longer excerpt won as the title, the own id
/// lifting it to a heading's weight.
#[test]
fn an_excerpt_linking_the_records_own_page_is_no_headline_beside_its_heading() {
    let teaser = |id: u32, title: &str, excerpt: &str| {
        format!(
            "<article class='item-news' data-id='{id}'>\
             <a class=thumb href='https://news.example/{id}.html'><img src='/{id}.jpg'></a>\
             <h3 class='title-news'><a href='https://news.example/{id}.html'>{title}</a></h3>\
             <p class=description><a href='https://news.example/{id}.html'>{excerpt}</a></p>\
             <div class=meta><span class=date>30/11/2026</span></div></article>"
        )
    };
    let html = [
        teaser(4890488, "Tỷ giá USD tăng phiên thứ ba liên tiếp", "Giá USD bán ra tại các ngân hàng thương mại sáng nay tăng thêm 25 đồng, lên mức cao nhất hai tháng."),
        teaser(4890461, "Doanh nghiệp xuất khẩu gạo chốt đơn hàng quý I", "Nhiều đơn vị tại Đồng bằng sông Cửu Long đã ký hợp đồng giao hàng cho khách ở Philippines và Indonesia."),
        teaser(4890420, "Hãng bay xin tăng đội tàu lên 30 máy bay", "Hãng hàng không đề xuất thuê thêm 8 tàu thân hẹp để phục vụ cao điểm Tết và các đường bay mới."),
    ]
    .concat();
    let items = items_of(&html, "item-news", "https://news.example/kinh-doanh/");
    let titles: Vec<&str> = items.iter().map(|it| it.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Tỷ giá USD tăng phiên thứ ba liên tiếp",
            "Doanh nghiệp xuất khẩu gạo chốt đơn hàng quý I",
            "Hãng bay xin tăng đội tàu lên 30 máy bay"
        ]
    );
}

/// Regression (round 68, a city's agenda): all-day events stored at
/// midnight where the page is ("Fri 4 Dec" for `2026-12-03T23:00:00Z`)
/// were dated the day before. A `<time>` showing the day after its UTC
/// moment's tells the page's offset (an hour ahead), as one showing a
/// clock time does, and every date is told in it.
#[test]
fn all_day_events_at_local_midnight_tell_the_pages_offset() {
    let event = |at: &str, shown: &str, n: u32| {
        format!(
            "<article><time datetime={at}><span>{shown}</span></time>\
             <h3><a href=/agenda/{n}>Marché de Noël numéro {n}</a></h3><p>Cours Victor-Hugo</p></article>"
        )
    };
    let html = format!(
        "<div>{}{}{}</div>",
        event("2026-12-03T23:00:00Z", "Fri 4 Dec", 1),
        event("2026-12-05T23:00:00Z", "Sun 6 Dec", 2),
        event("2026-11-28T13:00:00Z", "Sat 28 Nov", 3)
    );
    let doc = crate::extract::dom::parse(&html);
    let records = records_where(&doc, |i| doc.is_tag(i, "article"));
    let list = list_dates(&doc, &records, &ctx());
    let mut items = items_of_records(&doc, &records, "https://agenda.example/");
    list.tell_in_shown_offset(&mut items);
    let days: Vec<String> = items
        .iter()
        .filter_map(|it| it.date.map(|d| d.format("%Y-%m-%d %H:%M %:z").to_string()))
        .collect();
    assert_eq!(
        days,
        [
            "2026-12-04 00:00 +01:00",
            "2026-12-06 00:00 +01:00",
            "2026-11-28 14:00 +01:00"
        ]
    );
}
