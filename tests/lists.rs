//! Record extraction on realistic list pages written for these tests
//! (`tests/fixtures/lists/`: news index, blog, forum board, product grid,
//! GBK-encoded Chinese portal, release table, records with optional fields,
//! a short list under a huge menu, a Japanese blog, a page without records).
//! Each page goes through the real pipeline (decode → parse → mine →
//! records → items) and must give exactly its expected records, in order,
//! with their titles, links, dates, images and summaries.

use std::path::{Path, PathBuf};

use chrono::{TimeZone, Utc};
use feedmine::extract::dates::DateContext;
use feedmine::extract::patterns::{MiningParams, Mode};
use serde::Deserialize;
use url::Url;

#[derive(Deserialize)]
struct Expected {
    url: String,
    #[serde(default)]
    no_records: bool,
    records: Vec<ExpectedRecord>,
    /// The hard shape the fixture stands for, if any.
    #[serde(default)]
    shape: Option<String>,
    /// When the page was seen, for pages whose dates depend on it (a
    /// relative "23 hours ago", a year left out); else [`context`]'s.
    #[serde(default)]
    now: Option<chrono::DateTime<Utc>>,
}

#[derive(Deserialize)]
struct ExpectedRecord {
    title: String,
    /// Empty or null when the record has no link (a comment).
    #[serde(default, deserialize_with = "null_as_empty")]
    link: String,
    date: Option<String>,
    image: Option<String>,
    summary_contains: Option<String>,
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

/// Fixtures besides threaded comments whose records no one selector
/// names: a reading list's link lines (`details > p > a`) beside the
/// intro paragraphs of the same sections, told apart only by what they
/// hold (the selectors have no `:has`); a wiki's day lists (`ul > li`)
/// beside its "See also" list of the same markup, told apart only by
/// their headings' words; a seminar table's "TBA" row, of the talks'
/// markup in the talks' table, left out only because its one link (its
/// `.ics`) has not the talks' shape.
const UNPINNABLE: &[&str] = &[
    "start_here_reading_lists_strays",
    "wikinews_day_sections",
    "seminars_upcoming_table_calendar_first",
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lists")
}

/// "Now" for relative dates: shortly after the fixtures' newest records,
/// or the fixture's own `now` when it names one.
fn context_at(now: Option<chrono::DateTime<Utc>>) -> DateContext {
    DateContext {
        now: now.unwrap_or_else(|| Utc.with_ymd_and_hms(2024, 3, 10, 12, 0, 0).unwrap()),
        offset: chrono::FixedOffset::east_opt(0).unwrap(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    }
}

fn run(name: &str, params: &MiningParams) -> (Expected, Vec<feedmine::extract::items::Item>) {
    let dir = fixtures();
    let bytes = std::fs::read(dir.join(format!("{name}.html"))).unwrap();
    let expected: Expected = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.expected.json"))).unwrap(),
    )
    .unwrap();
    let decoded = feedmine::fetch::decode::decode(&bytes, None, None).unwrap();
    let url = Url::parse(&expected.url).unwrap();
    let ctx = context_at(expected.now);
    let page = feedmine::pipeline::analyze_list(&decoded.text, &url, params, &ctx);
    (expected, page.items)
}

/// Compare everything the fixture states; collect all mismatches.
fn check(name: &str) {
    let (expected, items) = run(name, &MiningParams::default());
    if expected.no_records {
        assert!(
            items.is_empty(),
            "{name}: expected no records, got {:?}",
            titles(&items)
        );
        return;
    }
    let mut problems = Vec::new();
    if items.len() != expected.records.len() {
        problems.push(format!(
            "{} records instead of {}: {:?}",
            items.len(),
            expected.records.len(),
            titles(&items)
        ));
    }
    for (i, (it, ex)) in items.iter().zip(&expected.records).enumerate() {
        let link = it.link.as_ref().map(Url::as_str).unwrap_or("");
        if link != ex.link {
            problems.push(format!("#{i} link {link:?} != {:?}", ex.link));
        }
        if it.title != ex.title {
            problems.push(format!("#{i} title {:?} != {:?}", it.title, ex.title));
        }
        if let Some(day) = &ex.date
            && !same_day(it.date, day)
        {
            problems.push(format!("#{i} date {:?} != {day:?}", it.date));
        }
        let image = it.image.as_ref().map(Url::as_str);
        if image != ex.image.as_deref() {
            problems.push(format!("#{i} image {image:?} != {:?}", ex.image));
        }
        if let Some(phrase) = &ex.summary_contains
            && !it.summary.contains(phrase.as_str())
        {
            problems.push(format!("#{i} summary {:?} lacks {phrase:?}", it.summary));
        }
    }
    assert!(problems.is_empty(), "{name}:\n  {}", problems.join("\n  "));
}

/// A label is a day in the page's own offset ("2024-03-08": the day the
/// record's own offset gives), or a timestamp whose offset names the day
/// ("2024-03-08T23:41:05-06:00", where the UTC day differs).
fn same_day(got: Option<chrono::DateTime<chrono::FixedOffset>>, label: &str) -> bool {
    let Some(got) = got else { return false };
    match chrono::DateTime::parse_from_rfc3339(label) {
        Ok(want) => got.with_timezone(want.offset()).date_naive() == want.date_naive(),
        Err(_) => got.date_naive().to_string() == label,
    }
}

fn titles(items: &[feedmine::extract::items::Item]) -> Vec<&str> {
    items.iter().map(|i| i.title.as_str()).collect()
}

#[test]
fn news_index_with_teaser_variants_beats_nav_sidebar_and_footer() {
    check("news_index");
}

#[test]
fn blog_index_with_three_posts_and_base_href() {
    check("blog_index");
}

#[test]
fn forum_board_table_with_sticky_threads() {
    check("forum_board");
}

#[test]
fn product_grid_with_sale_badges() {
    check("product_grid");
}

#[test]
fn gbk_encoded_chinese_portal() {
    check("gbk_portal");
}

#[test]
fn release_table_skips_header_row() {
    check("releases_table");
}

#[test]
fn records_with_optional_fields_are_all_found() {
    check("variant_records");
}

#[test]
fn short_news_list_wins_over_mega_menu() {
    check("nav_heavy_short");
}

#[test]
fn japanese_blog_dates() {
    check("japanese_blog");
}

#[test]
fn page_without_records_gives_no_items() {
    check("no_records");
}

// Hard shapes (issue "record detection on the hard shapes"): one
// fixture or two per shape, each tagged with its `shape` for `eval lists`.

#[test]
fn multi_sibling_title_row_and_metadata_row_are_one_record() {
    check("hn_front_page");
}

#[test]
fn multi_sibling_dt_dd_pairs_are_one_record() {
    check("podcast_episodes_dl");
}

/// Days as `<h3>` headings, each day's papers as `dt` + `dd` pairs, the
/// last day holding one paper: every record keeps its `dd` and takes its
/// day's date from the heading.
#[test]
fn sectioned_archive_by_day_dates_records_from_day_headings() {
    check("preprints_by_day");
}

#[test]
fn multi_sibling_heading_paragraph_and_read_more_without_wrapper() {
    check("council_news_siblings");
}

/// A wiki talk page (classic MediaWiki markup): each discussion is an
/// `h2` and the paragraphs, indented replies and lists after it, without
/// a wrapper. Titled by the heading without its "[edit]" link, linked by
/// the heading's anchor, dated by its first signature; the comments'
/// links to pages and users, the contents box and the talk-page banners
/// are no records, and an `h3` subsection stays in its discussion.
#[test]
fn multi_sibling_wiki_discussions_under_their_headings() {
    check("wiki_talk_page_classic");
}

/// Regression: a forge issue's comments were titled by their authors
/// (an `h3` holding the author link and the `<relative-time>`
/// permalink) and its lines of activity ("added the bug label") were
/// items among them.
#[test]
fn threaded_comments_of_a_forge_issue_without_its_activity() {
    check("forge_issue_timeline");
}

/// Regression: a forum topic's posts are siblings classed by who wrote
/// them (`div.topic-post.topic-owner`, `div.topic-post.group-…`); the
/// patterns crossing from one post into the next made each run of posts
/// one record of parts, so 5 of 12 posts were items, each titled by the
/// byline of the post it swallowed. Small actions and time gaps between
/// the posts are no posts.
#[test]
fn threaded_comments_of_a_forum_topic_among_small_actions() {
    check("discourse_topic_small_actions");
}

#[test]
fn threaded_comments_in_nested_ordered_lists() {
    check("garden_blog_comments");
}

/// Regression: the replies nest in a copy of the outer listing; the
/// top-level comments used to win, each swallowing its replies, and a
/// thread grouped by leading text runs took the self-post in with them.
#[test]
fn threaded_comments_nested_listings_give_every_comment() {
    check("bike_forum_nested_comments");
}

/// Regression: each day of a conference programme is a heading, a line
/// with a calendar link and a table in a scrolling box; each day's table
/// was a list of its own, so only Thursday's 5 talks were items. The
/// breaks between talks (a time and a label across the other columns)
/// are no records.
#[test]
fn sectioned_programme_tables_in_scroll_boxes_give_every_day() {
    check("conference_programme_days");
}

/// Regression: a launches leaderboard's first day heading sits in a
/// header block beside a "Popular / Newest" switch (the first day's
/// products were undated), each product's name and tagline are glued
/// links to its page in two styles (titled "TidepoolShared inbox…"),
/// and a promoted product between them is no record.
#[test]
fn sectioned_launches_by_day_under_header_blocks() {
    check("launches_by_day");
}

/// Regression: a blog's archive under year headings with their post
/// counts ("2024 5 posts") above "Mar 4" lines; the days were read in
/// the reader's year.
#[test]
fn sectioned_archive_under_counted_year_headings() {
    check("archive_by_year_counts");
}

#[test]
fn sectioned_archive_gives_every_year_in_page_order() {
    check("yearly_archive_sections");
}

#[test]
fn sectioned_front_page_gives_every_section() {
    check("news_front_sections");
}

#[test]
fn sectioned_grid_in_row_blocks_gives_every_card_with_its_date() {
    check("magazine_grid_row_blocks");
}

/// Regression: lists found three levels under a repeated wrapper joined
/// across the wrappers, so every card's share menu became one 40-link list.
#[test]
fn nav_in_content_share_menus_inside_cards_lose_to_the_cards() {
    check("bookmarks_share_menus");
}

#[test]
fn nav_in_content_series_toc_loses_to_dated_posts() {
    check("dev_blog_series_toc");
}

#[test]
fn nav_in_content_topic_navigation_loses_to_articles() {
    check("science_topic_nav_in_content");
}

#[test]
fn short_list_of_two_posts_beats_sidebar_widgets() {
    check("two_post_blog");
}

#[test]
fn short_list_of_three_docs_cards() {
    check("docs_three_cards");
}

#[test]
fn straggler_lead_post_above_the_last_posts_list() {
    check("notebook_lead_post");
}

#[test]
fn straggler_under_a_more_heading_and_a_caption_linking_the_index_is_not_one() {
    check("studio_more_heading");
}

/// Regression: a standards body's documents table classes each row's
/// Area Director cell `ad`, so every row was taken for an ad and the
/// page gave nothing. Each document is titled by its name link, not the
/// bold human title below it or the "(diff)" link.
#[test]
fn titles_document_names_in_a_table_with_an_ad_column() {
    check("standards_documents_table");
}

/// Regression: a consultations finder's results give "Closes: 3 May
/// 2024" before "Published: 7 March 2024"; every item was dated by its
/// deadline.
#[test]
fn dates_of_consultations_are_published_not_closing_days() {
    check("consultations_with_deadlines");
}

#[test]
fn titles_release_tag_link_not_mention() {
    check("forge_releases_mentions");
}

#[test]
fn titles_cells_joined_with_a_separator() {
    check("security_updates_table");
}

/// The paper's own rules are kept reachable; on a list of exact repeats
/// (`<li><a><text><span><text>`) they find the records too (a regression
/// guard for `mode = "paper"`).
#[test]
fn paper_mode_finds_exactly_repeated_rows() {
    let params = MiningParams {
        mode: Mode::Paper,
        ..MiningParams::default()
    };
    let (expected, items) = run("gbk_portal", &params);
    let expected_links: Vec<&str> = expected.records.iter().map(|r| r.link.as_str()).collect();
    let found = items
        .iter()
        .filter(|i| {
            i.link
                .as_ref()
                .is_some_and(|l| expected_links.contains(&l.as_str()))
        })
        .count();
    assert!(
        found >= expected.records.len() / 2,
        "paper mode found {found} of {}",
        expected.records.len()
    );
}

/// Every fixture with records: the selector generated for the winning group
/// re-selects exactly its records, and the feed pinned to the generated
/// selectors publishes the same items as detection.
#[test]
fn generated_selectors_reselect_the_detected_records_on_every_fixture() {
    use feedmine::extract::selectors::{self, CssDoc, ListChoice};
    let dir = fixtures();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let expected: Expected = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.expected.json"))).unwrap(),
        )
        .unwrap();
        if expected.no_records {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let text = feedmine::fetch::decode::decode(&bytes, None, None)
            .unwrap()
            .text;
        let url = Url::parse(&expected.url).unwrap();
        let params = MiningParams::default();
        let ctx = context_at(expected.now);
        let page = feedmine::pipeline::analyze_list(&text, &url, &params, &ctx);
        let winner = page.detection.winner().expect("a winner");
        let css = CssDoc::new(&page.doc);
        let Some(sel) = selectors::group_selector(&page.doc, &css, &winner.records) else {
            // Replies nest inside the comments they answer: one selector
            // cannot name records that contain other records (a match
            // inside a match is not a record of its own), so threaded
            // comments are the one shape `pin` cannot express.
            assert!(
                expected.shape.as_deref() == Some("threaded_comments")
                    || UNPINNABLE.contains(&name.as_str()),
                "{name}: no selector for the winner"
            );
            continue;
        };
        let compiled = selectors::compile(&sel).unwrap();
        let siblings = selectors::group_siblings(&page.doc, &winner.records);
        let got = selectors::select_records(&page.doc, &css, &compiled, siblings);
        // The same records, by the element each starts at (a detected
        // record may also have absorbed a trailing pagination element,
        // as on japanese_blog; a selector's record does not).
        let starts = |rs: &[feedmine::extract::records::Record]| {
            rs.iter().map(|r| r.start).collect::<Vec<_>>()
        };
        assert_eq!(
            starts(&got.records),
            starts(&winner.records),
            "{name}: `{sel}` (siblings {siblings}) selects other records"
        );
        let spans: std::collections::HashSet<usize> = winner
            .records
            .iter()
            .map(|r| selectors::roots_of(&page.doc, r).len())
            .collect();
        if spans.len() > 1 {
            // Records of several sibling elements whose count varies (a
            // <dt> with two or three <dd>s): `siblings = K` is one count,
            // so the pinned records lose their tails. Known limitation;
            // so do a thread's runs of siblings (old Reddit's anchor, vote
            // column, entry and replies), whose lengths vary.
            assert!(
                matches!(
                    expected.shape.as_deref(),
                    Some("multi_sibling" | "threaded_comments")
                ),
                "{name}"
            );
            continue;
        }
        let spec = feedmine::pin::spec_for_group(&page, 1, &ctx).unwrap();
        let pinned = feedmine::pipeline::analyze_list_with(
            &text,
            &url,
            &params,
            &ctx,
            &ListChoice::Select {
                spec: spec.clone(),
                fallback_auto: false,
            },
        );
        // Title, link, date and image are the same; a summary may differ
        // where a detected record's range ran on past its element (a
        // selector's record is exactly the element).
        let key = |items: &[feedmine::extract::items::Item]| {
            items
                .iter()
                .map(|i| (i.title.clone(), i.link.clone(), i.date, i.image.clone()))
                .collect::<Vec<_>>()
        };
        // A pinned selector names the list's own records: the winner's
        // stragglers (a lead post above the list) stand apart from it and
        // are not pinned. Known limitation, and only on those fixtures.
        let mut bare = winner.clone();
        bare.stragglers.clear();
        let listed = feedmine::pipeline::items_of_group(&page.doc, &bare, &page.base, &ctx);
        assert_eq!(
            listed.len() < page.items.len(),
            expected.shape.as_deref() == Some("straggler"),
            "{name}: stragglers only on the straggler fixtures"
        );
        assert_eq!(
            key(&pinned.items),
            key(&listed),
            "{name}: pinned to {spec:?}"
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} fixtures checked");
}

#[test]
fn forum_topic_rows_whose_classes_name_their_category_are_one_list() {
    // Regression: rows of one table whose kinds differ only by their
    // category and tag classes were cut as multi-row records (3 of 12).
    check("discourse_latest");
}

#[test]
fn shop_collection_with_colour_swatches_and_facets() {
    check("shop_collection_swatches");
}

#[test]
fn event_cards_with_day_month_and_year_in_separate_spans() {
    // Regression: "<span>05</span><span>Mar</span><span>2024</span>" gave
    // no date ("05Mar2024"). The cards after it in the month show only
    // "08 Mar": they are read in the year of the card before (2024), not
    // in the reader's.
    check("events_calendar_cards");
}

#[test]
fn event_cards_under_month_headings_take_the_headings_year() {
    // Regression: "Sat 5 Dec" split into three spans gave no date, and
    // a yearless day under "December 2026" would have been last year's.
    check("events_month_listing");
}

#[test]
fn link_aggregator_stories_keep_the_page_offset_day() {
    check("lobsters_story_list");
}

#[test]
fn drupal_views_rows_beat_the_same_markup_in_the_sidebar() {
    check("drupal_views_news");
}

#[test]
fn section_front_hero_story_joins_the_card_grid() {
    // Regression: a lead story above a grid of date-path permalinks
    // (/climate/2024/03/12/...) had no shape in common with them.
    check("newsroom_hero_mixed");
}

#[test]
fn mail_archive_thread_index_gives_every_message() {
    // Regression: only the 7 thread starters, each swallowing its replies.
    check("pipermail_thread_index");
}

#[test]
fn question_list_dated_by_tooltip_timestamps() {
    check("stackexchange_questions");
}

/// Regression: each answer follows an anchor (`<a name=…>` then
/// `div.answer`), and so does the answers' header ("6 Answers" and its
/// sort switch), which became the first answer.
#[test]
fn answers_after_anchors_without_their_header() {
    check("qa_answers_after_anchors");
}

/// Regression: the sticky threads sit in an `ol#stickies` of their own
/// right above the `ol#threads`, in the same markup, and were left out.
#[test]
fn forum_threads_with_their_stickies_in_a_list_of_their_own() {
    check("forum_thread_list_stickies");
}

/// Regression (an artist's page): the "you may also like" strip of other
/// artists' releases, with more words each, beat the discography.
#[test]
fn a_discography_beats_the_strip_captioned_you_may_also_like() {
    check("artist_discography_also_like");
}

/// Regression (a conference programme): each day's heading stands in a
/// head block with the day's calendar link, so the days' tables were
/// three lists and only the first day's 13 talks of 33 were items.
#[test]
fn a_programme_gives_the_talks_of_every_day() {
    check("conference_schedule_by_day");
}

/// Regression (a code forge's releases page): each release was titled
/// by its first contributor's name; the tag name in large type is named
/// by the release's heading kept for screen readers, and its muted twin
/// in the side column links the tag's tree, not the release.
#[test]
fn releases_are_titled_by_the_tag_their_hidden_heading_names() {
    check("forge_releases_hidden_headings");
}

#[test]
fn newsletter_archive_beats_top_posts_in_the_same_markup() {
    check("substack_archive_top_posts");
}

#[test]
fn video_grid_beats_the_playlist_shelf() {
    check("video_channel_grid");
}

#[test]
fn ghost_cards_with_image_and_text_links_to_one_post() {
    check("ghost_casper_home");
}

#[test]
fn issue_rows_beat_the_label_chips_of_the_filter_menus() {
    check("gitea_issue_list");
}

#[test]
fn posts_linked_only_by_an_empty_overlay_link() {
    check("papermod_overlay_links");
}

#[test]
fn status_posts_titled_by_their_text_not_their_poll_or_byline() {
    // Regression: a status whose poll options follow its text was titled
    // "Feb 25, 2024 Wren Castellane @wren@… Which cover cloth…": the
    // smallest block holding most of its text also held the permalink.
    check("microblog_timeline");
}

#[test]
fn classified_rows_across_a_nearby_results_divider() {
    check("classifieds_search");
}

#[test]
fn press_releases_beat_the_filter_panel_and_department_footer() {
    check("gov_press_releases");
}

#[test]
fn promoted_post_among_the_listing_is_not_a_record() {
    // Regression: the ad, laid out exactly like a post, was the 4th item.
    check("shreddit_listing");
}

#[test]
fn citations_under_year_headings_titled_by_their_bold_title() {
    // Regressions: the year sections (heading + list) won over the
    // citations they hold, and each citation was titled by a label link
    // ("BibTeX", "PDF") instead of its bold title.
    check("publications_list");
}

#[test]
fn comments_whose_permalink_is_an_icon_titled_link() {
    // Regression: the permalink is a chain icon named only by its `title`
    // ("link"), so the thread was not read as comments and each comment
    // was titled by its author's name (two authors' replies merged).
    check("lemmy_post_comments");
}

#[test]
fn events_under_day_headings_that_write_the_year_once() {
    // Regression: "Wednesday, March 13" after "Tuesday, March 12, 2024"
    // was read in the reader's year.
    check("meetup_events_by_day");
}

#[test]
fn subscriber_badge_inside_the_title_link_is_not_the_title() {
    // Regression: titles began with the "Abonnés" badge set inside the
    // headline's link.
    check("french_regional_news");
}

#[test]
fn bug_list_rows_titled_by_summary_not_id() {
    check("bugzilla_buglist");
}

#[test]
fn package_results_beat_their_keyword_links() {
    check("npm_search_results");
}

#[test]
fn recipe_cards_without_the_sponsored_cards_in_the_grid() {
    check("recipe_category_grid");
}

#[test]
fn commits_by_day_with_split_titles_and_a_lone_commit() {
    // Regressions: titles split into links around a "#482" reference were
    // cut at the first link ("Fix panic … ("), and the day holding a
    // single commit was left out of the archive.
    check("github_commits_by_day");
}

#[test]
fn sticky_post_in_its_own_markup_above_the_list() {
    // Regression: the sticky post's heading sits in its own
    // `header.entry-header`, which was taken for the page's chrome.
    check("spanish_blog_sticky");
}

#[test]
fn job_openings_by_department_with_a_nested_team() {
    // Regression: the "Data Platform" team nested in the Engineering
    // section lost its two openings.
    check("greenhouse_job_board");
}

#[test]
fn korean_board_with_notices_category_spans_and_comment_counts() {
    // Unseen-platform check (XE/Rhymix board): the category span and the
    // "[12]" comment-count link beside each title are not the title.
    check("korean_board_table");
}

#[test]
fn old_reddit_comment_page_with_collapsed_and_stickied_comments() {
    check("old_reddit_comments");
}

#[test]
fn merge_requests_titled_by_their_title_not_their_reference() {
    check("gitlab_merge_requests");
}

#[test]
fn regional_news_with_paywall_badges_at_the_end_of_headlines() {
    // Regression: the "AN+" badge at the end of four headline links ended
    // their titles.
    check("german_news_ticker");
}

#[test]
fn seminar_list_as_one_definition_list_with_optional_abstracts() {
    // Regression: the optional abstract `dd` links to the event its
    // details `dd` names ("Full abstract"); it was taken for the start of
    // a record of its own (then dropped as a repeated link), so every
    // event lost its abstract.
    check("university_events_dl");
}

#[test]
fn conference_programme_by_day_and_session() {
    // Regressions: days hold sessions that hold the papers (sections of
    // sections): only the first day's papers were taken; and the papers,
    // which carry no date, take their day from the session's title
    // ("Session 3B: … — Wed 3 June 2026, 10:30–12:00, Room 2.14").
    check("conference_program_by_session");
}

#[test]
fn court_judgments_titled_by_case_name_not_citation() {
    check("court_judgments_table");
}

#[test]
fn shop_listings_beside_a_section_nav_and_promoted_cards() {
    check("etsy_shop_listings");
}

#[test]
fn event_results_spread_over_unwrapped_siblings() {
    check("eventbrite_search_results");
}

#[test]
fn build_history_titled_by_build_number() {
    check("jenkins_build_history");
}

#[test]
fn game_news_with_a_featured_post_above_the_cards() {
    check("steam_game_news");
}

#[test]
fn library_catalogue_titles_keep_their_subtitles() {
    // Regression: the subtitle span inside the title link was taken for
    // the whole title ("Walking the Coast of Wrenford").
    check("library_catalog_search");
}

#[test]
fn monthly_archive_with_month_headings_and_a_lone_month() {
    check("wordpress_monthly_archive");
}

#[test]
fn property_listings_with_sponsored_cards_and_day_first_dates() {
    // Regressions: the two sponsored developments (their "Sponsored" label
    // in the card's header) were kept as listings, and "Added on
    // 12/11/2026" was read month first on a page that writes "19/11/2026".
    check("real_estate_listings");
}

#[test]
fn topic_posts_opening_with_code_or_a_quote_are_titled_by_their_words() {
    // Regressions: a post whose code block holds most of its text was
    // titled by the code, and a post of an opening line, a quote and a
    // long paragraph by the paragraph alone.
    check("discourse_topic_posts");
}

#[test]
fn comment_tree_with_a_deleted_comment_whose_replies_stay() {
    // Regression: the stub the deleted comment left ("Comment deleted by
    // author", its Link and Parent links) was an item.
    check("tildes_comments");
}

#[test]
fn newest_questions_dated_by_their_exact_time_not_the_relative_one() {
    check("stackexchange_newest_questions");
}

#[test]
fn podcast_episodes_spread_over_unwrapped_siblings() {
    check("podcast_episode_archive");
}

#[test]
fn channel_videos_beside_shorts_and_playlist_shelves() {
    check("youtube_channel_videos");
}

#[test]
fn japanese_section_list_with_icons_inside_the_title_link() {
    // Regression: a "動画" video icon at the start of a title link was
    // part of the title.
    check("japanese_news_list");
}

#[test]
fn link_aggregator_front_page_titled_by_the_story_link() {
    check("lobsters_front_page");
}

#[test]
fn release_notes_versions_linked_by_their_heading_anchors() {
    // Regression: versions (an `h2` with an in-page anchor, a date line,
    // sub-headings and lists, no wrapper) had no link, and the "Latest"
    // badge ended the first title.
    check("app_changelog_versions");
}

#[test]
fn course_catalogue_with_a_table_per_department() {
    // Regression: the departments (heading, a line of links, a table of
    // courses) were taken for the records, not the 30 courses.
    check("course_catalogue_by_department");
}

#[test]
fn hotel_results_with_a_banner_and_an_ad_among_the_cards() {
    // Regression: the sign-in banner between two cards was a record.
    check("hotel_search_results");
}

#[test]
fn mailing_list_month_as_a_nested_thread_tree() {
    check("mailman_month_thread_tree");
}

#[test]
fn mailing_list_threads_beside_most_active_and_popular_blocks() {
    check("hyperkitty_thread_list");
}

#[test]
fn recipe_results_beside_featured_collections_in_the_same_markup() {
    check("recipe_search_results");
}

#[test]
fn tag_page_with_a_featured_post_above_the_feed() {
    check("ghost_tag_archive");
}

#[test]
fn consultations_as_unwrapped_heading_metadata_and_summary_siblings() {
    check("government_consultations");
}

#[test]
fn collection_grid_with_hidden_duplicate_headings_and_facets() {
    check("shopify_collection_grid");
}

#[test]
fn model_hub_cards_beside_a_trending_box_that_repeats_them() {
    check("model_hub_listing");
}

#[test]
fn timeline_events_keep_the_comment_their_link_points_to() {
    // Regression: "Ticket #1193 (…) closed" linked to
    // `ticket/1193#comment:6` lost its fragment, so two events of one
    // ticket would have shared a link and a guid.
    check("trac_timeline_by_day");
}

#[test]
fn results_with_sponsored_slots_and_an_editorial_block_marked_in_camel_case() {
    // Regression: an "Editorial recommendations" block among the results,
    // marked `AdHolder` like the sponsored ones, was kept as a record.
    check("marketplace_search_results");
}

#[test]
fn forum_announcements_block_joins_the_topics_block() {
    // Regression: the Announcements block's status class made it another
    // kind of list, so only the Topics block was taken (26 of 29).
    check("phpbb_viewforum_announcements");
}

#[test]
fn lead_story_over_cards_in_folders_of_their_own_with_month_first_dashes() {
    // Regressions: "03-02-2024" was read day first (3 February) although
    // "03-15-2024" on the same list shows the month first, and the lead
    // story was lost because no folder was shared by most cards.
    check("us_local_news_month_first_dates");
}

#[test]
fn job_alert_box_among_the_results_is_no_record() {
    // Regression: the alert box, an `li` of the results' own class, became
    // a record titled "Terms" by the link in its fine print.
    check("job_board_search_with_facets");
}

#[test]
fn data_table_rows_beat_their_linked_columns() {
    // Regression: the title, department and attachment cells of each
    // notice row outranked the rows: 47 undated records for 23 notices.
    check("drupal_municipal_public_notices_table");
}

#[test]
fn year_sections_give_their_papers_even_when_few_link_a_title() {
    // Regressions: the year sections (4 records) outranked the 22 papers,
    // and a paper without a title link was titled "PDF" or "Code".
    check("academic_lab_publications_by_year");
}

#[test]
fn changelog_releases_dated_under_their_version_headings_are_the_records() {
    // Regression: the releases were taken for sections of their change
    // lines and lost to the "Added"/"Fixed" blocks under them.
    check("hugo_changelog_heading_lists");
}

#[test]
fn forum_posts_headed_by_their_posters_cards_are_titled_by_their_own_words() {
    // Regressions: the poster's name in an `h4` made every post headed
    // (titled by the name, linked to the profile), and a reply opening
    // with a quote was titled by the other poster's words.
    check("xenforo_thread_posts");
}

#[test]
fn titles_cut_to_fit_are_completed_by_their_tooltips() {
    // Regression: 17 of 20 notice titles were the cut text ("…") where
    // each link's `title` attribute holds the whole title.
    check("chinese_gov_notice_list_bracket_dates");
}

#[test]
fn diary_rows_are_dated_by_their_spanning_month_cell_and_day_cell() {
    // Regression: the month is a `rowspan` cell on the first row of each
    // month and the day a cell of each row: no entry had a date.
    check("film_diary_table_rowspan_months");
}

#[test]
fn answers_are_linked_by_their_share_links_not_their_edits_or_comments() {
    // Regressions: answers were linked to their "edited …" revisions link
    // or to a comment's timestamp, and a short answer was titled by the
    // comment under it.
    check("stackexchange_question_with_answers");
}

#[test]
fn ranked_items_beat_their_shop_product_and_review_blocks() {
    // Regression: each item's three linked blocks (90) outranked the 30
    // items.
    check("rakuten_style_ranking_jp");
}

#[test]
fn index_rows_are_titled_by_their_words_not_their_number_link() {
    // Regressions: each row links its number and its title to the same
    // page at the same path, and the number ("8") was the title; a row
    // striped `row-odd` among `row-even` rows of a three-row table was
    // dropped as another kind.
    check("pep_index_table");
}

#[test]
fn a_blog_of_mostly_untitled_posts_titles_the_titled_ones_by_their_headings() {
    // Regressions: the five titled posts were titled by their first
    // words; every post was undated (its permalink's text is its date); a
    // reblog was titled by the reblogged blog's name, a quote post by its
    // quote and source; a link post's "↗" was part of its title.
    check("tumblr_mixed_posts");
    // Regression: the pinned post's "Pinned post" label was a category.
    let (_, items) = run("tumblr_mixed_posts", &MiningParams::default());
    assert_eq!(items[0].categories, ["studio news", "classes", "leeds"]);
}

#[test]
fn exhibitions_are_dated_by_their_opening_day_and_the_featured_one_joins() {
    // Regressions: "4 July – 29 November 2026" was dated by its end; the
    // featured exhibition above the three sections was lost (the straggler
    // scope began at the first section's grid); the membership card in the
    // grid was an item.
    check("museum_exhibitions_ranges");
}

#[test]
fn an_untitled_post_among_titled_ones_is_titled_by_its_words() {
    // Regression: a post without a title was titled by its author's
    // profile link, not its words, and linked there instead of its
    // "2:05 PM" permalink.
    check("blogger_date_header_posts");
}

#[test]
fn comments_are_dated_by_their_time_links_tooltip() {
    // Regression: every comment's permalink says "3 days ago" and holds
    // its day only in its tooltip ("Tuesday, March 5, 2024 2:14 PM"): the
    // comments were undated.
    check("disqus_comments_on_article");
}

#[test]
fn issue_rows_grouped_under_status_rows_are_the_records() {
    // Regression: the status rows ("New 7", an expander and "Collapse
    // all") among the mined roots kept the issue rows from sharing
    // enough classes to be one list; four status rows were items.
    check("redmine_issues_table");
}

#[test]
fn thread_rows_whose_cells_are_classed_columns_are_the_records() {
    // Regression: each row's cells (`structItem-cell--main`,
    // `--meta`, `--latest`) were taken for records of their own: 57
    // records for 20 threads.
    check("xenforo_whats_new_threads");
}

#[test]
fn a_bare_list_of_thread_links_loses_its_index_and_reply_counts() {
    // Regressions: 40 thread links, one per line with no wrapper, gave
    // the operator's notices instead; titled "1: … (1001)" with the list
    // index and the reply count.
    check("japanese_bbs_thread_list");
}

#[test]
fn a_featured_story_with_a_tracking_query_joins_the_latest_cards() {
    // Regression: the featured story (its `h2` and `h3` subtitle in one
    // link, a `?source=` query unlike the cards') was lost.
    check("medium_publication_home");
}

#[test]
fn tenders_are_a_main_row_and_the_detail_row_naming_it() {
    // Regressions: the detail row (`aria-describedby` the main row's id,
    // class `app-tender-row__detail`) was a record of its own, titled by
    // a CPV code link; the reference number cell's link, first of the
    // row's cells, stood for the title cell's.
    check("tenders_table_closing_dates");
}

#[test]
fn a_sponsored_billboard_among_the_cards_is_no_item() {
    // Regression: the billboard card, whose only link is marked
    // `rel="sponsored"`, was an item.
    check("devto_feed_block_cards");
}

/// Regressions (scholarly search results): the "User profiles for …" box
/// above the results, carrying one of the results' three classes, was
/// the first item; the two "[CITATION]" results, whose heading holds no
/// link, were linked by their "Related articles" search and titled with
/// the "[CITATION][C]" label.
#[test]
fn search_results_without_the_profiles_box_and_with_unlinked_citations() {
    check("scholar_results_profiles_citations");
}

/// Regression (a council's meetings, each a main row and a documents
/// row): the documents rows holding a "Video (live stream)" or
/// "Cancellation notice (PDF)" link, to pages the main row does not link,
/// started records of their own.
#[test]
fn a_meetings_documents_row_never_starts_a_meeting() {
    check("council_meetings_two_rows");
}

/// Regression (a museum's exhibitions in Current, Upcoming and Past
/// sections): each section's view names the section in its classes
/// (`view-display-id-current`), so the three grids were three lists and
/// only the Past one's 9 of 20 exhibitions were items.
#[test]
fn exhibitions_of_every_section_are_one_list() {
    check("museum_exhibitions_three_sections");
}

/// Regression (a product's changelog, flat under one article): the patch
/// releases' `h3`s, each over the same date line as the minor releases'
/// `h2`s, were subsections, and 10 of 17 releases were lost.
#[test]
fn patch_releases_under_minor_releases_are_releases() {
    check("changelog_patch_releases_under_minors");
}

/// Regressions (a procurement portal's tenders grid): the pager row
/// (spanning the columns, its page links all scripts) was an item, and
/// three tenders were dated by "Corrigendum issued 29/11/2026" in their
/// title cell, not by their Published column.
#[test]
fn a_grids_pager_row_is_no_tender_and_a_corrigendum_dates_none() {
    check("tenders_table_pager_corrigenda");
}

/// Regressions (a department's seminars): the past months, folded into a
/// `details` below the coming months in markup of their own around the
/// same cards, were the only items (10 of 17); the seminar whose title is
/// to be announced, its heading unlinked, is linked to its card's place.
#[test]
fn past_seminars_folded_below_join_the_coming_ones() {
    check("seminars_upcoming_and_past_folded");
}

/// Regressions (a link aggregator's "Show" page, each story a title row,
/// a subtext row and a spacer): the rules notice above the first story, a
/// plain `tr` like the subtext rows, led the first story (its summary),
/// and the last story stopped before its subtext row (no date).
#[test]
fn the_last_story_keeps_its_subtext_row_below_a_notice_row() {
    check("link_aggregator_show_notice_row");
}

/// Regression (a preprint server's daily listing, each entry a `dt` with
/// its identifier link and a `dd` with its title): every entry was titled
/// "arXiv:2611.18042"; an identifier is no headline, so the entry's
/// title-classed element titles it, without its "Title:" descriptor.
#[test]
fn an_identifier_link_leaves_the_title_to_the_title_element() {
    check("preprint_listing_identifier_links");
}

/// Regression (a blog's tag page): the lead post above the feed, linked
/// by an absolute URL on the page's own host where the feed's posts are
/// linked by relative ones, was lost (14 of 15 posts).
#[test]
fn a_lead_post_linked_in_full_on_the_pages_own_host_is_a_straggler() {
    check("ghost_tag_page_lead_post_absolute");
}

/// Regression (a patent search's results): each was dated by its
/// priority date, the first on its "Priority • Filed • Published" line.
#[test]
fn a_patent_is_dated_by_its_publication_not_its_priority() {
    check("patent_results_priority_filed_published");
}

/// Regressions (a live blog): the pinned update above the feed was lost;
/// the six updates classed `is-key-event` were dropped as activity; an
/// update was titled by the social post it embeds, not its own words.
#[test]
fn a_live_blogs_pinned_post_and_key_events_are_updates() {
    check("live_blog_pinned_key_events");
}

/// Regression (a roundup post, each recipe an unlinked `h2` with an `id`
/// and a "Get the recipe" button): every recipe was linked to its
/// heading's place on the post, not to the recipe its button leads to.
#[test]
fn a_roundups_entry_is_linked_by_its_button() {
    check("recipe_roundup_button_links");
}

/// Regression (a podcast's episode list, its rows and its season header
/// rows classed by CSS modules, `EpisodeRow_row__3mVzK`): the build hash
/// left every row one kind, the list was read as two season records and
/// the footer won. A CSS module's class is its component and local name.
#[test]
fn css_module_classes_tell_season_headers_from_episodes() {
    check("podcast_show_season_header_rows");
}

/// Regressions (a legislature's bill tracker, each bill a row and a
/// last-action row): the action row's committee link ("referred to
/// Committee on Finance") made it a record of its own; the bills were
/// titled by their numbers ("HB 1204") and dated by their introduction.
/// A row carrying the bill row's `data-bill-id` continues it, a link in
/// a sentence leads no record, the link whose address holds the row's
/// own id is the title link, and a number link leaves the title to the
/// bill's `span.bill-title`.
#[test]
fn a_bills_last_action_row_continues_its_record() {
    check("legislature_bill_rows_last_action");
}

/// Regression (a newspaper's obituaries): cards were dated by the life
/// dates ("August 21, 1970 – November 20, 2026") or "Died November 19,
/// 2026", not by the day they were published.
#[test]
fn an_obituary_is_dated_by_its_publication() {
    check("obituaries_life_dates_published");
}

/// Regressions (a securities regulator's filings table): rows striped by
/// a class of a colour's name (`tr.filing-row.blueRow`) were two kinds,
/// so each pair of filings made one record (20 for 40); the filings,
/// whose only links are "Documents", "Interactive Data" and a file
/// number, were titled "Interactive Data"; a "Period of report" dated
/// them. A class on every other row is a stripe, links every row
/// repeats are labels (the row's own description titles it, its
/// Documents button links it), and a period gives way to the filed day.
#[test]
fn striped_filing_rows_are_each_a_record_titled_by_their_description() {
    check("securities_filings_striped_rows");
}

/// Regressions (an official gazette's notices by type): notices without
/// the `div.notice__head` wrapper were titled by their issuer or their
/// number, and every notice was dated by a day in its summary ("until
/// 5:00 pm on 18 December 2026"). A link classed as the title path's
/// last step is the title link wherever it stands, an identifier's title
/// is the bare text after it, and a date inside a sentence gives way to
/// a date line ("Published 27 November 2026").
#[test]
fn gazette_notices_are_titled_after_their_numbers_and_dated_by_publication() {
    check("gazette_notices_unwrapped_numbers");
}

/// Regressions (an app's release history as one `dl`): the `dd` notes
/// were the records (34 for 25 releases), then titled by their words and
/// linked to help articles. Where no sibling holds a headline, the `dt`
/// heads its record, titles it without its "Beta" badge and its date
/// ("Version 5.12.1 — 24 November 2026"), and its `id` links it.
#[test]
fn a_release_term_heads_its_notes() {
    check("release_history_dl_terms");
}

/// Regressions (a rendered Keep-a-Changelog file): each release's `h2`,
/// a compare link ("2.8.0") and " - 2026-11-12", was titled with its date
/// ("2.8.0 - 2026-11-12"), and a withdrawn one with its "[YANKED]". A
/// heading's title ends before the date it closes with (the item's date)
/// and the label after it.
#[test]
fn a_release_heading_is_titled_without_its_date() {
    check("keep_a_changelog_compare_links");
}

/// Regression (a news topic page): the lead story above the river, its
/// link carrying a tracking query (`…/great-lakes-warming/?itm_source=…`),
/// and the row of four secondary cards were lost: five headings of the
/// records' shape were more than two stragglers. Above the list a dated
/// lead block of up to six stories joins it, and a path ending in `/`
/// names its page whatever its query.
#[test]
fn a_fronts_lead_story_and_cards_join_its_river() {
    check("news_topic_lead_block_over_river");
}

/// Regression (a culture magazine's home page): the featured block (a
/// hero and three stacked features in three markups) sits beside the
/// block that holds the "Latest" river and its sidebar, one level beyond
/// where stragglers were looked for; the four features were lost.
#[test]
fn a_magazines_featured_block_beside_its_river_joins_it() {
    check("magazine_featured_block_beside_river");
}

/// Regression (a game's store page): its "Development log" of three
/// posts lost to the comments under the page, which say more. A list
/// whose caption links the page its records lie under
/// (`…/devlog` over `…/devlog/811203/…`) gains on the ranking.
#[test]
fn a_devlog_captioned_by_its_index_beats_the_comments() {
    check("game_page_devlog_captioned_by_index");
}

/// Regressions (a free-software project's hand-written news page): each
/// item is an `h3`, a `<p><i>date</i></p>` and paragraphs, lists, code
/// and tables with no wrapper. The paragraph before each `h3` was taken
/// to lead the record after it, so every record began with the one
/// before's last paragraph (and date); an `h3` without a link is placed
/// by its `<a name>`; the "Older news" index of years is no record.
#[test]
fn unwrapped_news_items_start_at_their_headings() {
    check("project_news_unwrapped_named_anchors");
}

/// Regression (a town council's agendas and minutes): each meeting is a
/// row of labels ("Agenda", "Minutes", "Watch") and its date. Rows with
/// one link of their own ("Draft minutes", "Live on the night") were
/// titled and linked by it, and the others by the longest label. A row
/// whose first link and most links are labels is titled by its first
/// date or words and linked by its first link.
#[test]
fn meeting_rows_are_titled_by_their_day_and_linked_by_their_agenda() {
    check("committee_meetings_labelled_rows");
}

/// Regression (a city's vacancies table): a full-width "Featured
/// apprenticeship" row, classed unlike the vacancies and linking the
/// scheme's page, was a vacancy.
#[test]
fn a_full_width_banner_row_is_no_vacancy() {
    check("vacancies_table_banner_row");
}

/// Regression (a standards tracker's drafts): each row's document cell
/// is the draft's file name link and its title in bold under it; the
/// drafts were titled by their file names.
#[test]
fn a_draft_is_titled_by_its_bold_name_not_its_file_name() {
    check("drafts_tracker_slug_names");
}

/// Regression (a web developers' weekly newsletter): its "Quick bits",
/// one-line `li` items in one more `section.issue-section` after the
/// three sections of articles, were left out. A list in one more headed
/// section of the kind that holds the winner's joins it; the sponsor's
/// `article.item--sponsor` among the articles stays out.
#[test]
fn a_newsletters_quick_bits_join_its_sections_of_articles() {
    check("newsletter_issue_sections_quick_bits");
}

/// Regression (a blog aggregator's posts by day): the sidebar's
/// "Subscriptions" block, a `div` of `div#sidebar` beside the posts'
/// `div#content`, was a fifteenth post; four posts were dated by a day
/// their prose names ("The Board met on 19 November 2026") instead of
/// their day heading; an untitled post (`div.entry.untitled`, its title
/// link empty) was titled by its author's name.
#[test]
fn a_planets_posts_leave_out_its_sidebar_and_take_their_day_headings() {
    check("planet_posts_by_day_beside_sidebar");
}

/// Regression (a company's press releases, `dt`/`dd` pairs): a release
/// whose title links its PDF was titled by its date line ("2026年10月30日
/// お知らせ"), and the file's note "(PDF 2.4MB)" ended the others' titles.
#[test]
fn a_press_release_filed_as_a_pdf_is_titled_by_its_link() {
    check("press_releases_dl_file_size_notes");
}

/// Regression (a git web log): the closing full-width row, a
/// `tr.nohover` linking the next page as "[...]", was a commit.
#[test]
fn a_commit_logs_closing_more_row_is_no_commit() {
    check("commit_log_table_more_row");
}

/// Regression (a classic WordPress theme's home page): asides and quotes
/// have no title but an `h3.entry-format` ("Aside", "Quote") below the
/// `h2` titles of the other posts; they were titled "Aside" and linked to
/// their place on the page, not by their permalink.
#[test]
fn untitled_post_formats_are_titled_by_their_words() {
    check("blog_home_post_format_labels");
}

/// Regression (a council's weekly planning list): two wards in tables of
/// their own (`<caption>`) and four in one table grouped by header rows;
/// only the grouped table's 19 applications were found.
#[test]
fn a_weekly_list_split_across_tables_of_one_kind_is_one_list() {
    check("planning_list_tables_by_ward");
}

/// Regression (a news aggregator's top stories): the 31 "More coverage"
/// reports under the clusters' leads won over the 12 leads, and the
/// "For you" section's cards of the same component were stories.
#[test]
fn an_aggregators_story_leads_beat_their_coverage_and_its_picks() {
    check("news_aggregator_clusters_and_picks");
}

/// Regression (a crowdfunding project's updates tab): the month
/// separators among the update cards ("November 2026", `role=separator`)
/// were updates dated the 1st.
#[test]
fn month_separators_among_updates_are_no_updates() {
    check("project_updates_month_separators");
}

/// Regression (an election-night live blog): updates linked only by
/// their timestamps, 15 with an unlinked headline and 13 only words; the
/// unheaded ones were titled by their times ("00:40 CST") and none was
/// linked.
#[test]
fn live_blog_updates_are_titled_by_headline_or_words_and_linked_by_time() {
    check("live_blog_headlines_and_unheaded_updates");
}

/// Regression (a council's meetings and agendas): the meeting names
/// repeat ("Planning Committee" eleven times), so rows were titled by
/// their date cells, and two were linked to their minutes.
#[test]
fn repeated_meeting_names_title_their_meetings() {
    check("council_meetings_repeated_names");
}

/// Regression (a Q&A site's newest questions): a closed question's
/// title kept the site's " [closed]" note.
#[test]
fn question_titles_lose_the_sites_status_notes() {
    check("qa_newest_questions_status_notes");
}

/// Regression (a chat archive): a message with a link preview card was
/// titled by the card, and messages introducing a log ran on into it.
#[test]
fn chat_messages_are_titled_by_their_own_words() {
    check("chat_archive_day_dividers_previews");
}

/// Regression (an agency's press releases by year): releases linking
/// their PDF kept "PDF, 0.9 MB", the file's note after an icon, in their
/// titles. The closed years' releases are records as the open year's.
#[test]
fn releases_in_closed_years_count_and_lose_their_file_notes() {
    check("press_releases_year_details_file_notes");
}

/// A story of three table rows (title, subtext, spacer) is one record,
/// dated by its age link's UTC time.
#[test]
fn three_row_stories_are_one_record_each() {
    check("hn_like_front_page_three_row_records");
}

/// Regression (a microblog's public timeline): the statuses were titled
/// and linked by their posters' names (`/@handle`, which each status's
/// permalink extends), and a poster's second status was dropped.
#[test]
fn statuses_are_titled_by_their_words_not_their_posters() {
    check("microblog_timeline_poster_links_boosts");
}

/// Regression (a link aggregator's comment rows): a "[flagged]" comment
/// and a "[deleted]" one that kept its age link were items.
#[test]
fn flagged_and_deleted_comment_rows_are_no_items() {
    check("news_board_comment_rows_flagged_deleted");
}

/// Regression (a TV channel's day): eight slots with an "AD" badge
/// titled "Audio described" were dropped as advertisements.
#[test]
fn audio_described_slots_are_programmes_not_ads() {
    check("tv_channel_day_access_badges");
}

/// Regression (a package's versions): the tags table's rows came first
/// undated, their history rows were dropped as repeats, and the two
/// undated pre-releases ("5.0.0-next.3") were dropped as no release.
#[test]
fn tagged_versions_are_dated_by_their_history_rows() {
    check("package_versions_tags_then_history");
}

/// Regression (a film diary): the month cell's parts, glued by their
/// markup ("NOV2026"), dated no row.
#[test]
fn diary_rows_are_dated_by_their_glued_month_cell() {
    check("film_diary_glued_month_cells");
}

/// Regression (a library's news in definition lists): the second
/// description of a term was undated.
#[test]
fn a_terms_second_description_is_dated_by_it() {
    check("library_news_terms_shared_descriptions");
}

/// Regression (a handbook's "Start here" page): the reading lists' links
/// to a whole section (`/guides/`), a tag page, the blog's own profiles on
/// other sites and a `mailto:` line were items beside the articles.
#[test]
fn a_reading_list_gives_its_articles_not_its_index_tag_profile_or_mailto_lines() {
    check("start_here_reading_lists_strays");
}

/// Regression (a photo group's pool): every photo was titled by its
/// "by <user>" link, whose text its href's slug matched, not by its title
/// link, which holds the tile's `data-photo-id`.
#[test]
fn a_photo_tile_is_titled_by_the_link_to_its_own_id_not_its_poster() {
    check("photo_pool_grid_data_ids");
}

/// Regression (a food agency's recalls): a pinned help notice in the
/// cards' markup was an item, and a notice whose "Updated:" line comes
/// before its "Published:" one was dated by its update.
#[test]
fn recalls_leave_out_the_pinned_notice_and_date_by_publication() {
    check("recalls_pinned_notice_updated_dates");
}

/// Regression (a business's reviews): a review with the owner's longer
/// reply nested inside it was titled by the reply.
#[test]
fn a_review_is_titled_by_its_own_words_not_the_owners_reply() {
    check("reviews_with_owner_replies");
}

/// Regression (a map project's changesets): each changeset's only date
/// is "Closed <abbr title=…>3 days ago</abbr>", a label of a deadline,
/// and every changeset was undated.
#[test]
fn a_closed_changeset_is_dated_by_its_closing_tooltip() {
    check("changesets_closed_tooltip_dates");
}

/// Regression (a bookshop's new releases by week): the first week's
/// heading stands in a header block beside its count ("8 new titles"),
/// and its books were undated.
#[test]
fn the_first_week_heading_beside_its_count_dates_its_books() {
    check("releases_by_week_counted_headings");
}

/// Regression (a preprint listing whose entries each name new authors):
/// every entry was titled and linked by its first author, the list of
/// authors being the one path of distinct names; and the sections'
/// "Mon, 30 Nov 26" was read as 26 November.
#[test]
fn a_preprints_authors_are_no_headline_and_its_short_year_is_read() {
    check("preprint_listing_author_lists");
}

/// Regression (a court's opinions, two rows each): an opinion approved
/// for publication days after its decision was dated by the approval
/// in its badge, not by its decided date.
#[test]
fn an_opinion_is_dated_by_its_decision_not_its_approval() {
    check("court_opinions_two_row_approved_badge");
}

/// Regression (a link aggregator's comment tree): replies by the
/// original poster (`li.comment.comment-by-op`) and a deleted reply
/// carry one class more than the others, and all five were left out.
#[test]
fn replies_marked_as_the_posters_or_deleted_stay_comments() {
    check("link_aggregator_comment_tree_op_marks");
}

/// Regression (a seminar series table whose day cells span their
/// talks): a "No seminar – reading week" row, its day cell beside one
/// cell across the other columns, was an item titled by its link.
#[test]
fn a_note_row_beside_its_day_cell_is_no_talk() {
    check("seminar_table_rowspan_days_note_row");
}

/// Regression (a French town's agenda): "Du 27 novembre au 3 décembre
/// 2026" was dated by its last day, the first one having no year.
#[test]
fn a_french_run_of_days_is_dated_by_its_first_day() {
    check("city_agenda_french_date_ranges");
}

/// Regression (a Japanese city's news list): a PDF's note in full-width
/// brackets, "（PDF：245KB）", was kept in its title.
#[test]
fn a_full_width_file_note_is_no_part_of_a_title() {
    check("city_news_japanese_file_note");
}

/// Regression (a local news article's comments): "… in the engineering
/// report on page 31." read the page number as a list number, so the
/// title ran past the sentence's end and was cut mid-sentence.
#[test]
fn a_number_after_a_word_ends_a_comments_first_sentence() {
    check("news_article_nested_comments");
}

/// A Mailman archive's thread index: nested `<ul>`s of bare `<li><a>`
/// messages without closing tags, every "Re:" reply a record.
#[test]
fn a_mailing_list_thread_index_gives_every_message() {
    check("mailing_list_archive_threads");
}

/// A statistics office's publications as `<dt>` dates and `<dd>` titles
/// under month headings: each pair one record, linked to its page, not
/// its PDF.
#[test]
fn date_terms_and_their_descriptions_are_one_record_each() {
    check("agency_publications_dl");
}

/// Regression (a new blog on a WordPress theme): its two posts carry
/// their categories and tags as classes (`category-caminhadas`,
/// `tag-inverno`), so they were two kinds and no list, and the footer's
/// columns won; then a sidebar's widgets outscored them.
#[test]
fn two_posts_filed_under_different_terms_beat_the_footer() {
    check("portuguese_blog_two_posts");
}

/// Regression (a parish's weekly bulletins): the sidebar's calendar
/// widget, five dated events in an `aside`, beat the article's four
/// bulletins, each a link straight to its PDF and dated only by the
/// Sunday its title names.
#[test]
fn bulletins_in_the_article_beat_the_sidebar_and_are_dated_by_their_titles() {
    check("parish_bulletins_pdfs");
}

/// Regression (a workshop's accepted papers): a paper without a page of
/// its own was linked, or even titled, by the longest of its authors'
/// names; it is linked by its PDF and titled in bold.
#[test]
fn an_unlinked_paper_is_linked_by_its_file_not_its_authors() {
    check("conference_accepted_papers");
}

/// Regression (an Arabic news section, right to left): "٣٠ نوفمبر ٢٠٢٦"
/// and "30 نوفمبر 2026" dated nothing, neither Arabic-Indic digits in
/// running text nor Arabic month names being read.
#[test]
fn arabic_dates_with_either_digits_are_read() {
    check("arabic_news_section_rtl");
}

/// Regression (an Indonesian news index): a "Baca juga:" line between
/// the articles, an editor's link to an older one, was an item, and
/// "Selasa, 1 Desember 2026 | 08:02 WIB" dated nothing.
#[test]
fn a_read_also_line_among_the_articles_is_no_item() {
    check("indonesian_news_index");
}

/// Regression (a wiki's latest news by day): the "See also" list after
/// the day sections, four links to archive and portal pages, was joined
/// to the news as a sixth section.
#[test]
fn a_see_also_list_after_the_day_sections_is_no_section() {
    check("wikinews_day_sections");
}

/// Regression (a Vietnamese news section): the "Tin nổi bật" box between
/// the teasers, its linked heading over a list of other headlines, was a
/// straggling record; the teasers were titled by their excerpts, which
/// link the same page as their headings; and the top story, in a section
/// of its own before the list's section (beside a market-data box), was
/// missed.
#[test]
fn a_box_of_headlines_among_the_teasers_is_no_record() {
    check("vietnamese_news_list");
}

/// Regression (a site builder's company blog): the featured post, in a
/// section of its own before the section holding the grid's three
/// collection lists, six wrappers above them, was missed.
#[test]
fn a_featured_post_in_the_section_before_the_grid_is_an_item() {
    check("company_blog_grid_with_inserts");
}

/// Regression (a church's sermons by series): each series, a heading with
/// a date line spanning its sermons ("October 18, 2026 – November 29,
/// 2026 · 7 messages") over a table of dated sermons, was taken for a
/// record with notes (as a changelog's release is), and the four series
/// won over the sermons, which the miner finds as one group per table.
#[test]
fn a_series_date_line_over_dated_sermons_is_a_sections_heading() {
    check("sermon_archive_by_series");
}

/// Regression (a Thai news section): "30 พ.ย. 2569 10:45 น.", a Thai
/// month name with a Buddhist-era year, dated nothing.
#[test]
fn thai_dates_in_the_buddhist_era_date_the_stories() {
    check("thai_news_section_buddhist_era");
}

/// Regression (a forge's discussions): the three pinned cards above the
/// list, built differently from its rows, were missed: the rows' dates
/// are `<relative-time datetime>` elements ("2 hours ago"), which did not
/// count as dated, so the pinned cards were no dated lead block.
#[test]
fn pinned_discussions_above_rows_dated_by_relative_time_are_items() {
    check("github_discussions_list");
}

/// Regression (a university department's news, built with Drupal): the
/// featured story, in a view of its own before the news view, was
/// missed: the news view's caption, an unlinked "Latest news" heading
/// right before the grid, ended the search for a featured block.
#[test]
fn a_featured_story_before_a_captioned_grid_is_an_item() {
    check("university_department_news_grid");
}

/// Regression (a county court's hearing calendar): each day a row of one
/// header cell across the table ("Thursday, December 3, 2026") over the
/// day's hearings, which show only their time: no hearing was dated, as
/// only heading elements headed sections.
#[test]
fn a_calendars_day_rows_date_the_hearings_below_them() {
    check("county_court_calendar_table");
}

/// Regression (a newspaper's home page): the lead story, an `article` in a
/// section of its own above the desks (Local, Sports, Business, Opinion),
/// was missed: its link, `/news/local/<slug>/article_<uuid>.html`, is one
/// folder deeper than most desks' stories, and the records' links share no
/// named folder, so they had no shape for a straggler to match. Their
/// templated file name (`article_#.html`) on one host is that shape.
#[test]
fn a_lead_story_above_the_desks_joins_by_its_templated_file_name() {
    check("newspaper_homepage_sections");
}

/// Regression (a game's patch notes archive): each patch a `<details>`
/// whose `<summary>` reads "Patch 7.14.2 — November 26, 2026" and a
/// tagline, its only link a "Full notes" at the foot of its body, the same
/// in every patch: each was titled by a hero's name in bold in its body.
/// The summary titles the patch, up to the date that follows its name, and
/// the repeated link leads to its page.
#[test]
fn a_disclosures_summary_titles_the_patch_up_to_its_date() {
    check("game_patch_notes_archive");
}

/// Regression (a vBulletin thread): each post's words are set in a
/// `blockquote.postcontent`, read as a quotation, so each post was titled
/// by its poster's profile ("BarleyWineBarb View Profile View Forum Posts
/// Super Moderator …"). A quoted earlier post inside it is still left out.
#[test]
fn a_forums_message_blockquote_is_the_posts_own_words() {
    check("vbulletin_thread_posts");
}

/// Regression (a Hindi news section): "30 नवंबर 2026, 18:45 IST" and
/// "अपडेटेड: 01 दिसंबर 2026" dated no story.
#[test]
fn hindi_month_names_date_the_stories() {
    check("hindi_news_section");
}

/// Regression (a Persian news agency's section): its stories are dated in
/// the Solar Hijri calendar with Persian digits ("۱۰ آذر ۱۴۰۵ - ۱۸:۳۰"),
/// and none was dated.
#[test]
fn solar_hijri_dates_date_the_stories() {
    check("persian_news_agency_section");
}

/// Regression (a financial portal's market news): rows dated by the day
/// rows above them ("Tuesday, December 1, 2026" in a cell spanning the
/// table); the empty row of an advertisement's slot between them (one
/// cell spanning the table, `tr.ad-row`) was read as a section heading
/// without a date, and the rows below it lost their day.
#[test]
fn an_advertisements_row_heads_no_section() {
    check("markets_news_table");
}

/// Regression (a Swahili news section on a news theme): its three newest
/// stories, each dated, in a hero block of their own before the wrapper
/// of the category's river, five levels above the list, were missed: a
/// featured block could hold one story only. Its dates ("1 Desemba
/// 2026", "Desemba 1, 2026") were not read either.
#[test]
fn a_hero_block_of_three_dated_stories_above_the_river_joins_it() {
    check("swahili_news_list");
}

/// Regression (a football league's results): each match linked only by
/// its score ("2–1") between its two teams was titled "2–1"; it is read
/// with the teams around it, "Ashcombe Town 2–1 Bramwell Rovers".
#[test]
fn a_score_between_two_teams_is_read_with_them() {
    check("sports_fixtures_results_by_date");
}

/// Regression (a wiki's log of new pages): each line a timestamp linking
/// the page's first revision, the page's name, its byte count, its
/// creator and the edit summary, all in one line of the list. Read as
/// comments (a timestamp link, words beside short links), each line was
/// titled by its edit summary and linked by its revision; a line whose
/// words stand in no block of their own is titled by its linked name.
#[test]
fn a_log_line_is_titled_by_its_linked_name_not_its_summary() {
    check("mediawiki_new_pages_log");
}

/// Regression (an Urdu news section): "30 نومبر 2026" and "یکم دسمبر
/// 2026" (the first of December, the day written as a word) dated no
/// story.
#[test]
fn urdu_month_names_date_the_stories() {
    check("urdu_news_list");
}

/// Regression (a phpBB thread): every post is headed by the thread's
/// subject ("Re: 1x12 czy 2x12 na gravela pod bikepacking?"), so the
/// posts were read as titled, by their posters' names, and five posts of
/// repeat posters were lost as duplicates of their profile links. A
/// subject most posts repeat (a reply mark aside) titles none; each post
/// is titled by its own words, past the post it quotes, and linked by its
/// subject's `./viewtopic.php?p=…#p…`, whose fragment names the post.
#[test]
fn a_threads_repeated_subject_titles_no_post() {
    check("polish_forum_thread_posts");
}

/// Regression (a self-hosted forge's issue list): each issue says only
/// "opened 13 hours ago", and keeps its exact time in Fomantic UI's popup
/// attribute (`data-tooltip-content="Mon, 30 Nov 2026 21:12:40 CET"`);
/// 22 of 25 issues were dated by the clock, and moved with it.
#[test]
fn a_forges_relative_times_are_dated_by_their_popup_attribute() {
    check("gitea_issues_relative_times");
}

/// Regression (a Vietnamese news section): the top block of one dated
/// lead story and three small cards (`article.item-news.item-news-common`,
/// the river's own card without its `thumb-left`), with neither date nor
/// lede, each headline beside a comment count linking the same story's
/// `#box_comment`, was missed: a heading held two links, the small cards
/// were undated, and the "most read" box after the list, in the same
/// headline markup, made them another list. A lead block's undated
/// stories may be the list's own cards; a heading's links to one page are
/// one link; another list past the list leaves a lead block above it.
#[test]
fn a_top_block_of_the_rivers_own_cards_joins_it() {
    check("vietnamese_news_top_block");
}

/// Regression (a museum's exhibitions): the current shows' grid holds a
/// membership promo in the exhibitions' own card markup, linking
/// `/membership`; the grid did not continue the upcoming and past ones,
/// and five current shows were missed. A grid of the winner's kinds
/// joins without the one card in four at most that leaves its links'
/// shape.
#[test]
fn a_promo_card_keeps_no_grid_from_the_list() {
    check("museum_exhibitions_current_upcoming");
}

/// Regression (a shop's product reviews): reviews link no page (a few
/// link their photo's file), so Rule 3 dropped them and four "You may
/// also like" products were the feed. Dated posts that mostly link
/// nothing are kept and read as comments without permalinks: titled by
/// their words (a short review by its body's block, not its reviewer's
/// name and place), never linked by a photo, the seller's dated reply
/// under a review no part of its words.
#[test]
fn reviews_that_link_no_page_are_the_list() {
    check("craft_shop_reviews_with_replies");
}

/// Regression (a game store's news hub): events "Sat, December 5", their
/// year left out, were dated the December 5 past (a Friday); the weekday
/// names the year.
#[test]
fn a_yearless_events_weekday_names_its_year() {
    check("game_store_news_hub");
}

/// Regression (an open-data portal's datasets): a description's sentence
/// naming a day ("… polling places used in the November 3, 2026 general
/// election") dated its dataset before the line "Updated November 24,
/// 2026" under it. A date labelled as the record's revision dates it
/// before its sentences' days do.
#[test]
fn a_datasets_revision_line_beats_a_day_its_description_names() {
    check("open_data_portal_datasets");
}

/// Regression (a Brazilian news section): each story's `<time>` holds
/// its moment in UTC ("2026-12-01T01:41:00.000Z") and shows "há 11
/// horas" or the page's own clock ("30/11/2026 20h15" for 23:15 UTC);
/// stories posted after 21:00 in Brasília were dated the next day, and
/// the clock written with an `h` was not read. The page's offset is the
/// one its times show, and each date is told in it.
#[test]
fn a_pages_shown_clock_gives_the_offset_of_its_days() {
    check("brazil_news_utc_times");
}

/// Regression (review of the shown offset): records pinned by a
/// `[feed.select]` selector were read in the page's shown offset but kept
/// their `<time>` moments in UTC, so a story at 01:41 UTC stayed on 1
/// December where detection put it on 30 November. Both paths tell each
/// date in the offset the page shows, and so does a feed configured with
/// that very offset.
#[test]
fn pinned_records_are_told_in_the_pages_shown_offset() {
    let name = "brazil_news_utc_times";
    let dir = fixtures();
    let bytes = std::fs::read(dir.join(format!("{name}.html"))).unwrap();
    let expected: Expected = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.expected.json"))).unwrap(),
    )
    .unwrap();
    let text = feedmine::fetch::decode::decode(&bytes, None, None)
        .unwrap()
        .text;
    let url = Url::parse(&expected.url).unwrap();
    let params = MiningParams::default();
    let brasilia = chrono::FixedOffset::west_opt(3 * 3600).unwrap();
    let days = |items: &[feedmine::extract::items::Item]| {
        items
            .iter()
            .map(|i| {
                i.date
                    .map(|d| (d.offset().local_minus_utc(), d.date_naive()))
            })
            .collect::<Vec<_>>()
    };
    let ctx = context_at(expected.now);
    let page = feedmine::pipeline::analyze_list(&text, &url, &params, &ctx);
    let spec = feedmine::pin::spec_for_group(&page, 1, &ctx).unwrap();
    let pinned = feedmine::pipeline::analyze_list_with(
        &text,
        &url,
        &params,
        &ctx,
        &feedmine::extract::selectors::ListChoice::Select {
            spec,
            fallback_auto: false,
        },
    );
    assert_eq!(days(&pinned.items), days(&page.items));
    let configured = DateContext {
        offset: brasilia,
        ..ctx
    };
    let local = feedmine::pipeline::analyze_list(&text, &url, &params, &configured);
    assert_eq!(days(&local.items), days(&page.items));
    assert!(
        days(&page.items)
            .iter()
            .all(|d| d.is_some_and(|(offset, _)| offset == -3 * 3600))
    );
}

/// Regression (round 58, a live blog): updates headed by a lone bold line
/// were titled by that line and the report's first sentence glued to it,
/// and the five marked as key events (`liveblog-entry--key-event`) were
/// taken for a forge's activity lines and left out.
#[test]
fn a_live_blogs_bold_headlines_title_its_updates_and_key_events_stay() {
    check("local_news_live_blog_key_events");
}

/// Regression (round 58, a mail archive): the month's download as a
/// gzip'd file, in a list of the same markup after the thread index, was
/// published as a message.
#[test]
fn a_thread_indexs_download_of_the_month_is_no_message() {
    check("pipermail_thread_index_download");
}

/// Regression (round 58, a publications page): the file notes beside a
/// report's link ("(PDF, 5.2 MB), July 2024 · … (PDF, 880 KB)") made a
/// sentence of its line, and the report was titled by its second link.
#[test]
fn file_notes_beside_a_publications_link_make_no_sentence() {
    check("ngo_publications_file_notes");
}

/// Regression (round 58, a month calendar): the days holding events won
/// as records, so a day of two events was one item titled by its first,
/// and none was dated (the events show only their times; the day is the
/// cell's `data-day`).
#[test]
fn a_month_grids_events_are_records_dated_by_their_days() {
    check("parish_events_month_grid");
}

/// Regression (round 59, a FullCalendar month): the weeks won as records
/// (each row of seven days), so a week's events were one item and none
/// was dated: a week is never an event, its days' events are, each dated
/// by its cell's `data-date`.
#[test]
fn a_fullcalendar_weeks_events_are_records_dated_by_their_days() {
    check("community_centre_fullcalendar_weeks");
}

/// Regression (round 59, a phpBB forum with subforums): each topic row's
/// hidden mobile "Last post" link shows only its `<time>`, and counted as
/// a second headline, so the topics scored as records of two items each
/// and the six subforums won. A link that shows only a time is a date.
/// The announcement alone in its own block above the topics is still
/// missed (a known failure): the 13 topics after it are asserted here.
#[test]
fn a_forums_topics_win_over_its_subforums() {
    let (expected, items) = run("phpbb_topics_below_subforums", &MiningParams::default());
    let want: Vec<&str> = expected.records[1..]
        .iter()
        .map(|r| r.title.as_str())
        .collect();
    assert_eq!(titles(&items), want);
    for (it, ex) in items.iter().zip(&expected.records[1..]) {
        let day = ex.date.as_deref().unwrap();
        assert!(
            same_day(it.date, day),
            "{} {:?} != {day}",
            it.title,
            it.date
        );
    }
}

/// Regression (round 59, a Q&A page): the site's "New contributor …"
/// notice under a short answer held more words than the answer, and
/// titled it.
#[test]
fn a_sites_notice_does_not_title_an_answer() {
    check("qa_answers_new_contributor_notice");
}

/// Regression (round 59, a wiki's recent changes): a new page's line
/// carries variants of the edits' classes (`mw-changeslist-new` for
/// `mw-changeslist-edit`) and was dropped as a block of another kind in
/// the list.
#[test]
fn a_wikis_new_pages_stay_among_its_recent_changes() {
    check("mediawiki_recent_changes_new_pages");
}

/// Regression (round 60, a conference programme): the break rows stand
/// in the same three cells as the talks, with no cell spanning columns,
/// and a day's breaks paired with its talks won over the three days'
/// talks; rows that link nothing and lack the class every linking row
/// carries are interludes.
#[test]
fn a_programmes_unspanned_breaks_are_not_talks() {
    check("conference_talks_among_breaks");
}

/// Regression (round 60, an old-Reddit thread): a deleted comment keeps
/// its time and says "[deleted]" twice, as author and as text, and was
/// published titled "[–][deleted] 16 hours ago (1 child)".
#[test]
fn a_deleted_comment_with_its_time_is_a_stub() {
    check("old_reddit_deleted_stubs");
}

/// Regression (round 60, a new PaperMod blog): the two posts' titles are
/// unlinked, each card's link an empty one laid over it, and the short
/// list rule wanted a linked heading: the footer's links won.
#[test]
fn two_cards_linked_by_covering_links_are_a_short_list() {
    check("papermod_two_posts");
}

/// Regression (round 61, a council's notices table): a notice without a
/// page of its own was linked by its category cell (`?category=
/// allotments`, the list itself filtered) instead of its PDF.
#[test]
fn a_notice_without_a_page_is_linked_by_its_file_not_its_category() {
    check("council_notices_file_only_row");
}

/// Regression (round 62, a seminar page): the upcoming talks' table did
/// not join the past talks' because each of its rows opens with a "+
/// calendar" link, and the past rows' first links (half of them the
/// speaker's homepage) had no shape in common; a table's rows are told by
/// the shape of the links most rows hold.
#[test]
fn upcoming_rows_led_by_calendar_links_join_the_past_talks() {
    check("seminars_upcoming_table_calendar_first");
}

/// Regression (round 62, a mail archive's search): "22 Jul '25" was read
/// as no date, a two-digit year being read only with its weekday; the
/// apostrophe says the century was left out.
#[test]
fn an_apostrophe_year_dates_a_result() {
    check("hyperkitty_search_apostrophe_years");
}

/// Regression (round 63, a radio station's day schedule): programmes
/// showing only their times ("06:00") were left undated, one dated
/// heading above a whole list dating nothing; a timetable's heading names
/// its records' day.
#[test]
fn a_timetable_takes_the_day_of_its_heading() {
    check("radio_schedule_times_under_day_heading");
}

/// Regression (round 64, a blog of mixed post types): the 7 photo and quote
/// posts, which open without a heading, were taken for the second halves of
/// the text and link posts before them (8 records of two `article`s each).
/// Posts of one tag and class that close alike are whole posts, as those
/// that open alike are.
#[test]
fn posts_that_close_alike_are_whole_records() {
    check("tumblr_text_photo_quote_link_posts");
}

/// Regression (round 64, a project's activity page): the terms' classes
/// name what changed, so no one kind of `dt` outvoted the descriptions'
/// single kind, and the `dd`s (the authors' links) headed records. The
/// kinds of one tag vote together for the sibling that holds the titles.
#[test]
fn terms_of_varied_classes_head_their_descriptions() {
    check("redmine_activity_varied_terms");
}

/// Regression (round 64, a forum with subforums): the 3 subforum rows, in
/// one more headed section of the topics' kind, joined the topics: on the
/// topics' host and depth, their links (`/forum/16-…/`) are no topics
/// (`/topic/48011-…/`). A section's links must share the first directory
/// the winner's share.
#[test]
fn subforums_in_a_section_beside_the_topics_stay_out() {
    check("invision_subforums_above_topics");
}

/// Regression (round 65, a site builder's blog): a pinned post's yearless
/// "Mar 3" above the newest posts, read in the reader's year, made each
/// later "Nov 28" the one nearest it, in 2025. Only a date whose year is
/// written (or read near one) carries its year to the next record.
#[test]
fn a_pinned_posts_yearless_day_gives_the_next_no_year() {
    check("wix_blog_pinned_yearless_dates");
}

/// Regression (round 66, a university events calendar): the 15 event cards,
/// each holding its title, venue, department and three add-to-calendar
/// links, counted four headlines a card and lost to the featured carousel's
/// 4 events as a list of sections. A headline link text that half the
/// records or more repeat ("Google Calendar") is an action, not a headline.
#[test]
fn links_every_record_repeats_are_no_headlines() {
    check("localist_events_calendar_links");
}

/// Regression (round 65, a site builder's blog grid): its dates are
/// "11/28/26", which no pattern read (two-digit years only with a weekday
/// or an apostrophe), and an excerpt's "October 6" dated one post instead.
/// A whole string of slashes may end in a two-digit year.
#[test]
fn a_blogs_slash_dates_with_two_digit_years() {
    check("squarespace_blog_grid_short_year_dates");
}

/// Regression (round 67, a court's judgments): each judgment is a row naming
/// the case and a row summing it up, whose "Press summary (PDF)" link is as
/// long as a headline. The summary rows were variants of the case rows and
/// each became a record. A kind of row that comes right after every head,
/// built otherwise, is the second half of each record.
#[test]
fn a_row_after_every_case_row_is_its_second_half() {
    check("court_judgments_summary_rows");
}

/// Regression (round 67, a Discuz! board): threads with unread replies hold
/// their title in `th.new`, the others in `th.common`, so the title path
/// missed four threads and their last-post time titled them. The title path
/// in other classes of the same tags, in records without it, titles them.
#[test]
fn a_title_cell_in_another_state_class_still_titles_its_thread() {
    check("discuz_threads_new_reply_cells");
}

/// Regression (round 68, a help center's category page): the articles its
/// editors promote (`li.article-list-item.article-promoted`, a star before
/// the link) were dropped as ads, one in each section. A mark that says only
/// "promoted" makes an ad where the record shows an ad word.
#[test]
fn promoted_articles_that_say_no_ad_word_are_articles() {
    check("zendesk_sections_promoted_articles");
}

/// Regression (round 68, a Japanese city's news list): a PDF link's note
/// "（PDF：8,412KB）", bare text after the PDF icon inside the link, stayed
/// in the title; in its own `span` it did not. A bracketed file note as the
/// link's last text is a label too.
#[test]
fn a_bare_full_width_file_note_after_an_icon_ends_the_title() {
    check("japanese_city_news_file_notes");
}

/// Regression (round 68, an artist's music page): the right column's bio,
/// discography, merch and report blocks were taken for a list of four and
/// beat the grid of four releases, whose bare titles say less. Blocks that
/// each carry a class of their own and open differently are widgets.
#[test]
fn a_column_of_widgets_loses_to_a_short_grid_of_releases() {
    check("bandcamp_four_releases_beside_widgets");
}

/// Regression (round 68, a Korean board): the date cells say "14:03" for
/// today's posts, "11-28" for this year's and "25-12-30" for older ones, and
/// no post was dated. A cell classed as a date is read in those short
/// numbers, a month and day in this year whatever the notices above say.
#[test]
fn a_boards_date_cells_in_short_numbers_date_its_posts() {
    check("gnuboard_date_cells_short_numbers");
}

/// Regression (round 68, a Russian phpBB forum): "28 ноя 2026, 14:03",
/// each topic's start, was no date, so every topic took its last post's
/// `<time>` from a hidden copy for small screens. Russian and Ukrainian
/// month names are read.
#[test]
fn russian_topic_starts_date_their_topics() {
    check("russian_phpbb_topics_start_dates");
}

/// Regression (round 69, a community weblog): posts have no headline, their
/// words written straight into `div.copy` above a "posted by … - 14
/// comments" line, a `<br>` after each and a day heading over each day.
/// The records started at the `<br>`s, the last of each day swallowed the
/// next day's heading (so no post was dated), and each post was titled by
/// its poster. The comments link is now the post's permalink, the words
/// above the byline its title, a heading among headless posts a section
/// heading, and records start at the posts, not at the breaks.
#[test]
fn weblog_posts_without_headlines_are_titled_by_their_words_and_dated_by_their_day() {
    check("weblog_posts_under_day_headings");
}

/// Regression (round 69, a Korean blog): "2026. 11. 28. 14:03", a dot and
/// a space after each part, was no date.
#[test]
fn korean_dates_with_spaced_dots_date_their_posts() {
    check("korean_blog_spaced_dot_dates");
}

/// Regression (round 69, a Turkish news category): "28 Kasım 2026 14:03"
/// was no date. Turkish month names are read.
#[test]
fn turkish_month_names_date_their_stories() {
    check("turkish_news_category_month_names");
}

/// Regression (round 69, an Italian town's news): "30 ott 2026" was no
/// date (two of twelve cards). Italian month abbreviations are read.
#[test]
fn italian_month_abbreviations_date_their_news() {
    check("italian_town_news_short_months");
}

/// Regression (round 70, a Polish news portal): "dzisiaj, 09:15",
/// "wczoraj, 22:10" and "28 listopada 2026" were no dates (11 of 20
/// stories undated). Polish day words and genitive months are read.
#[test]
fn polish_day_words_and_months_date_their_stories() {
    check("polish_news_today_yesterday_words");
}

/// Regression (round 70, a Czech news section): "28. listopadu 2026 14:03"
/// was no date. Czech genitive month names are read.
#[test]
fn czech_genitive_months_date_their_articles() {
    check("czech_news_genitive_months");
}

/// Regression (round 70, a Greek news list): "28 Νοεμβρίου 2026, 14:03"
/// and "Χθες, 22:10" were no dates. Greek genitive months and day words
/// are read.
#[test]
fn greek_months_and_day_words_date_their_news() {
    check("greek_news_genitive_months");
}

/// Regression (round 70, a Hebrew news section): "28.11.26 | 14:03", a
/// two-digit year after the day and month, was no date. It is read with
/// its time (alone, "5.12.10" is a version). Nor were the newest items'
/// ages, "לפני 40 דקות" and "לפני שעה" (an hour ago).
#[test]
fn two_digit_years_with_a_time_date_their_articles() {
    check("hebrew_news_two_digit_years");
}

/// Regression (round 71, a Finnish news section): "tänään 9.15" and
/// "eilen 22.10" (today, yesterday, the minutes after a dot) were no
/// dates (7 of 20 teasers undated).
#[test]
fn finnish_day_words_with_dotted_times_date_their_teasers() {
    check("finnish_news_klo_times");
}

/// Regression (round 71, a Swedish local paper): "i dag 09:15" and "i
/// går 22:10" were no dates. Day words that are short or words of other
/// languages are read with a time only.
#[test]
fn swedish_day_words_date_their_teasers() {
    check("swedish_news_today_yesterday_words");
}

/// Regression (round 71, a Hungarian portal): "2026. november 28. 14:03",
/// the year first with a dot after it, "ma 09:15" and "tegnap 22:10"
/// were no dates (every article undated).
#[test]
fn hungarian_year_first_dates_date_their_articles() {
    check("hungarian_news_year_first");
}

/// Regression (round 71, a Taiwanese agency's news table): "115-11-28",
/// a year of the Republic of China's calendar, was no date.
#[test]
fn republic_of_china_years_date_their_notices() {
    check("taiwan_gov_roc_dates");
}

/// Regression (round 71, an anonymous board's thread): headless Japanese
/// posts were titled by all their lines run together ("スレ立て乙
/// 今年は白菜の結球がいまいちだわ"); a post in a script without spaces is
/// titled by its first line.
#[test]
fn spaceless_posts_are_titled_by_their_first_line() {
    check("fivech_thread_posts_first_lines");
}

/// Regression (round 72, a Ukrainian news feed): "Сьогодні, 09:15" and
/// "Вчора, 22:10" were no dates (9 of 24 items undated).
#[test]
fn ukrainian_day_words_date_their_news() {
    check("ukrainian_news_day_words");
}

/// Regression (round 72, a Russian portal): "сегодня в 09:15" and "вчера
/// в 22:10" were no dates; a time after "в" (at) is read.
#[test]
fn russian_day_words_with_a_time_date_their_news() {
    check("russian_portal_news_today_at");
}

/// Regression (round 72, a Brazilian blog): "há 3 horas" and "ontem às
/// 22h10" were no dates: ages were read in English, CJK, Korean, Hebrew
/// and Czech only.
#[test]
fn portuguese_ages_date_their_posts() {
    check("brazil_blog_ages_in_portuguese");
}

/// Regression (round 72, an Indonesian portal): "2 jam yang lalu" with
/// "Selasa, 01 Des 2026 09:45 WIB" in its tooltip was no date: neither
/// the Indonesian weekday, month abbreviation nor zone was read.
#[test]
fn indonesian_tooltips_date_their_relative_items() {
    check("indonesian_news_relative_tooltips");
}

/// Regression (round 72, a forge's releases page): each release card was
/// split into its body and its footer (16 records, none a release): the
/// assets' long file names counted as headlines, so the cards looked like
/// several records each and were taken for sections of their parts.
/// Downloads are no headlines, and a section holding several records
/// holds two of one kind.
#[test]
fn release_cards_are_not_split_into_their_parts() {
    check("gitlab_releases_asset_links");
}

/// Regression (a WordPress site's home page with the Latest Posts block,
/// dates hidden): its 8 posts went out undated though each permalink
/// writes its day (`/2026/11/24/…/`). An item nothing else dates is dated
/// by its permalink on the page's own site; so is a regional paper's
/// brief without a time of its own (`french_regional_news`).
#[test]
fn undated_posts_are_dated_by_their_permalinks() {
    check("wordpress_latest_posts_dated_permalinks");
    check("french_regional_news");
}
