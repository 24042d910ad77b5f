//! The state's behaviour, one function per case, run against every backend
//! (`tests/pg_state.rs` runs each on SQLite and on PostgreSQL): the same
//! merge, identity, publishing, body-retry and run-history meaning in both.
//! Each case gets a fresh, empty store.

#![allow(dead_code)] // Not every test crate runs every case.

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use feedmine::extract::items::Item;
use feedmine::state::identity::IdentityRules;
use feedmine::state::{CachedValidators, MAX_RUNS_PER_FEED, Retention, RunRow, StateError, Store};
use url::Url;

/// One case: it panics when the store misbehaves.
pub type Case = fn(&Store);

/// Every case, by name, for a runner that loops over them.
pub const ALL: &[(&str, Case)] = &[
    (
        "changed_position_summary_and_thumbnail_stay_one_item",
        changed_position_summary_and_thumbnail_stay_one_item,
    ),
    (
        "new_items_of_one_run_get_decreasing_first_seen_in_page_order",
        new_items_of_one_run_get_decreasing_first_seen_in_page_order,
    ),
    (
        "scrolled_off_item_stays_published_until_max_age",
        scrolled_off_item_stays_published_until_max_age,
    ),
    ("max_items_cuts_the_oldest", max_items_cuts_the_oldest),
    (
        "page_dates_order_before_first_seen",
        page_dates_order_before_first_seen,
    ),
    (
        "linkless_duplicate_titles_get_distinct_keys_and_stable_guids",
        linkless_duplicate_titles_get_distinct_keys_and_stable_guids,
    ),
    (
        "volatile_parameter_is_learnt_and_items_are_not_duplicated",
        volatile_parameter_is_learnt_and_items_are_not_duplicated,
    ),
    (
        "relative_dates_stay_fixed_and_absolute_dates_update",
        relative_dates_stay_fixed_and_absolute_dates_update,
    ),
    (
        "date_only_items_are_never_dated_in_the_future",
        date_only_items_are_never_dated_in_the_future,
    ),
    (
        "link_normalization_drops_tracking_and_fragment_only",
        link_normalization_drops_tracking_and_fragment_only,
    ),
    (
        "validators_are_dropped_when_config_hash_changes",
        validators_are_dropped_when_config_hash_changes,
    ),
    (
        "body_attempts_count_and_limit_refetches",
        body_attempts_count_and_limit_refetches,
    ),
    (
        "run_history_is_newest_first_and_pruned",
        run_history_is_newest_first_and_pruned,
    ),
    (
        "pruning_bounds_storage_but_keeps_current_items",
        pruning_bounds_storage_but_keeps_current_items,
    ),
    (
        "a_run_that_never_finished_is_recorded_as_failed_once",
        a_run_that_never_finished_is_recorded_as_failed_once,
    ),
    (
        "page_titles_are_read_for_every_feed_at_once",
        page_titles_are_read_for_every_feed_at_once,
    ),
];

fn page_titles_are_read_for_every_feed_at_once(store: &Store) {
    assert!(store.page_titles().unwrap().is_empty());
    store
        .save_page_meta("a", Some("Harbour news"), Some("en"))
        .unwrap();
    store.save_page_meta("b", None, Some("de")).unwrap();
    store.save_page_meta("c", Some("Old"), None).unwrap();
    store
        .save_page_meta("c", Some("Ferry times"), None)
        .unwrap();
    let titles = store.page_titles().unwrap();
    let mut titles: Vec<_> = titles.into_iter().collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            ("a".to_string(), "Harbour news".to_string()),
            ("c".to_string(), "Ferry times".to_string())
        ]
    );
}

pub fn t(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, h, m, 0).unwrap()
}

pub fn story(slug: &str, title: &str, summary: &str, thumb: Option<&str>) -> Item {
    let link = Url::parse(&format!("https://news.example.org/2026/11/{slug}")).unwrap();
    Item {
        title: title.into(),
        guid: link.to_string(),
        link: Some(link),
        date: None,
        date_relative: false,
        summary: summary.into(),
        image: thumb.map(|s| Url::parse(s).unwrap()),
        author: None,
        categories: Vec::new(),
        body_html: None,
    }
}

pub fn front_page() -> Vec<Item> {
    vec![
        story(
            "council-budget",
            "Council approves 2027 budget",
            "After four hours of debate the council passed the budget 7-2.",
            Some("https://cdn.example.org/img/council-320.jpg"),
        ),
        story(
            "river-flooding",
            "River levels expected to peak on Thursday",
            "The water agency warns residents along the east bank.",
            None,
        ),
        story(
            "school-lunches",
            "Free school lunches extended to all pupils",
            "The program starts in January.",
            Some("https://cdn.example.org/img/lunch-320.jpg"),
        ),
    ]
}

fn linkless(title: &str, summary: &str) -> Item {
    Item {
        title: title.into(),
        link: None,
        guid: String::new(),
        date: None,
        date_relative: false,
        summary: summary.into(),
        image: None,
        author: None,
        categories: Vec::new(),
        body_html: None,
    }
}

pub fn keep(max_items: usize, days: Option<i64>) -> Retention {
    Retention {
        max_items,
        max_age: days.map(Duration::days),
    }
}

pub fn run(started: DateTime<Utc>, status: &str, records: usize) -> RunRow {
    RunRow {
        started,
        duration_ms: 840,
        status: status.into(),
        records,
        new_items: 1,
        pattern: Some("body > main > ul.posts > li".into()),
        error: (status == "failed").then(|| "HTTP 503 Service Unavailable".to_string()),
    }
}

pub fn changed_position_summary_and_thumbnail_stay_one_item(store: &Store) {
    let first = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
    assert_eq!(first.new_keys.len(), 3);
    let key = first.new_keys[1].clone();
    let before = store.item("city", &key).unwrap().unwrap();

    // An hour later a new story on top; the river story moved down,
    // got a new summary and a thumbnail, its link picked up utm tags.
    let mut page = front_page();
    page[1].summary = "Update: the peak is now expected on Friday morning.".into();
    page[1].image = Some(Url::parse("https://cdn.example.org/img/river-320.jpg").unwrap());
    let mut tagged = page[1].link.clone().unwrap();
    tagged.set_query(Some("utm_source=rss&utm_medium=feed"));
    page[1].link = Some(tagged);
    page.insert(
        0,
        story("new-bridge", "New bridge opens", "Traffic relief.", None),
    );
    let second = store.merge_items("city", &page, t(9, 0)).unwrap();
    assert_eq!(second.new_keys.len(), 1);
    assert_eq!(second.updated, 1);
    assert_eq!(second.unchanged, 2);
    assert_eq!(store.item_count("city").unwrap(), 4);

    let after = store.item("city", &key).unwrap().unwrap();
    assert_eq!(after.first_seen, before.first_seen);
    assert_eq!(after.guid, before.guid);
    assert_eq!(
        after.guid,
        "https://news.example.org/2026/11/river-flooding"
    );
    assert_eq!(after.last_seen, t(9, 0));
    assert_ne!(after.content_hash, before.content_hash);
    assert!(after.summary.starts_with("Update:"));
    assert!(after.image.is_some());
}

pub fn new_items_of_one_run_get_decreasing_first_seen_in_page_order(store: &Store) {
    store
        .merge_items("city", &front_page()[1..2], t(7, 0))
        .unwrap();
    let merge = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
    assert_eq!(merge.new_keys.len(), 2);
    let a = store.item("city", &merge.new_keys[0]).unwrap().unwrap();
    let b = store.item("city", &merge.new_keys[1]).unwrap().unwrap();
    assert_eq!(a.title, "Council approves 2027 budget");
    assert_eq!(a.first_seen, t(8, 0));
    assert_eq!(b.first_seen, t(8, 0) - Duration::seconds(1));
    // The published order is the page order.
    let published = store
        .published_items("city", t(8, 0), &keep(10, None))
        .unwrap();
    let titles: Vec<_> = published.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Council approves 2027 budget",
            "Free school lunches extended to all pupils",
            "River levels expected to peak on Thursday"
        ]
    );
    let item = published[0].to_item();
    assert_eq!(item.date, Some(t(8, 0).fixed_offset()));
    assert!(item.guid_is_permalink());
}

pub fn scrolled_off_item_stays_published_until_max_age(store: &Store) {
    store.merge_items("city", &front_page(), t(8, 0)).unwrap();
    // Next day only the first story is still on the page.
    let day2 = t(8, 0) + Duration::days(1);
    store.merge_items("city", &front_page()[..1], day2).unwrap();
    let week = keep(50, Some(7));
    assert_eq!(store.published_items("city", day2, &week).unwrap().len(), 3);
    let day9 = t(8, 0) + Duration::days(9);
    let left = store.published_items("city", day9, &week).unwrap();
    // The current item stays even though it was last seen 8 days ago.
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].title, "Council approves 2027 budget");
    // Still stored (pruning waits 90 days), only not published.
    assert_eq!(store.item_count("city").unwrap(), 3);
    // An absurd max_age means no limit, not a panic.
    let forever = Retention {
        max_items: 50,
        max_age: Some(Duration::MAX),
    };
    assert_eq!(
        store.published_items("city", day9, &forever).unwrap().len(),
        3
    );
    store
        .merge_items_keeping("city", &front_page()[..1], day9, &forever)
        .unwrap();
}

pub fn max_items_cuts_the_oldest(store: &Store) {
    for (hour, item) in front_page().into_iter().rev().enumerate() {
        store
            .merge_items("city", &[item], t(6 + hour as u32, 0))
            .unwrap();
    }
    let two = store
        .published_items("city", t(10, 0), &keep(2, None))
        .unwrap();
    let titles: Vec<_> = two.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Council approves 2027 budget",
            "River levels expected to peak on Thursday"
        ]
    );
}

pub fn page_dates_order_before_first_seen(store: &Store) {
    let mut page = front_page();
    let offset = FixedOffset::east_opt(3600).unwrap();
    // The page lists an older story first (a pinned post).
    page[0].date = Some(offset.with_ymd_and_hms(2026, 11, 1, 9, 0, 0).unwrap());
    page[1].date = Some(offset.with_ymd_and_hms(2026, 11, 19, 9, 0, 0).unwrap());
    page[2].date = Some(offset.with_ymd_and_hms(2026, 11, 19, 9, 0, 0).unwrap());
    store.merge_items("city", &page, t(8, 0)).unwrap();
    let items = store
        .published_items("city", t(8, 0), &keep(10, None))
        .unwrap();
    let titles: Vec<_> = items.iter().map(|i| i.title.as_str()).collect();
    // Same date: page order; the pinned old story last.
    assert_eq!(
        titles,
        [
            "River levels expected to peak on Thursday",
            "Free school lunches extended to all pupils",
            "Council approves 2027 budget"
        ]
    );
    assert_eq!(items[0].to_item().date, page[1].date);
}

pub fn linkless_duplicate_titles_get_distinct_keys_and_stable_guids(store: &Store) {
    let page = vec![
        linkless("Weekly  Market Report", "Prices rose."),
        linkless("weekly market report", "Prices fell."),
        linkless("Road works on Main St", "Closed until May."),
        linkless("Weekly Market Report", "Unchanged."),
    ];
    let keys = Store::identity_keys(&IdentityRules::default(), &page);
    assert_eq!(
        keys,
        [
            "title:weekly market report",
            "title:weekly market report#2",
            "title:road works on main st",
            "title:weekly market report#3"
        ]
    );
    let merge = store.merge_items("notices", &page, t(8, 0)).unwrap();
    assert_eq!(merge.new_keys.len(), 4);
    let again = store.merge_items("notices", &page, t(9, 0)).unwrap();
    assert!(again.new_keys.is_empty());
    assert_eq!(again.unchanged, 4);
    let item = store.item("notices", &keys[1]).unwrap().unwrap();
    assert!(item.guid.starts_with("feedmine:notices:"));
    assert_eq!(item.guid.len(), "feedmine:notices:".len() + 16);
    assert_ne!(
        item.guid,
        store.item("notices", &keys[0]).unwrap().unwrap().guid
    );
    assert!(!item.to_item().guid_is_permalink());
}

/// A board whose links carry a per-visit parameter no default knows:
/// the second run learns it and the stored items are re-keyed, so the
/// third and later runs add nothing; the newest link is kept.
pub fn volatile_parameter_is_learnt_and_items_are_not_duplicated(store: &Store) {
    let board = |visit: &str, topics: &[u32]| -> Vec<Item> {
        topics
            .iter()
            .map(|t| {
                let mut it = story("x", &format!("Topic {t}"), "", None);
                let link = Url::parse(&format!(
                    "https://forum.example.org/viewtopic.php?t={t}&visit={visit}"
                ))
                .unwrap();
                it.guid = link.to_string();
                it.link = Some(link);
                it
            })
            .collect()
    };
    let rules = IdentityRules::default();
    let m1 = store
        .merge_items_with(
            "board",
            &board("a1", &[1, 2, 3]),
            t(9, 0),
            &keep(100, None),
            &rules,
        )
        .unwrap();
    assert_eq!((m1.new_keys.len(), m1.learned.as_deref()), (3, None));
    let m2 = store
        .merge_items_with(
            "board",
            &board("b2", &[4, 1, 2, 3]),
            t(10, 0),
            &keep(100, None),
            &rules,
        )
        .unwrap();
    assert_eq!(m2.learned.as_deref(), Some("visit"));
    assert_eq!(
        m2.new_keys,
        vec!["https://forum.example.org/viewtopic.php?t=4".to_string()]
    );
    let m3 = store
        .merge_items_with(
            "board",
            &board("c3", &[4, 1, 2, 3]),
            t(11, 0),
            &keep(100, None),
            &rules,
        )
        .unwrap();
    assert_eq!((m3.new_keys.len(), m3.learned), (0, None));
    assert_eq!(store.item_count("board").unwrap(), 4);
    assert_eq!(
        store.volatile_params("board").unwrap(),
        vec!["visit".to_string()]
    );
    let first = store
        .item("board", "https://forum.example.org/viewtopic.php?t=1")
        .unwrap()
        .unwrap();
    assert!(
        first.link.unwrap().as_str().ends_with("visit=c3"),
        "newest link kept"
    );
    assert!(
        first.guid.ends_with("visit=a1"),
        "guid fixed at first sight"
    );
}

/// "2 days ago" read on three runs gives three times; the first stays.
/// An absolute date that changes (an edit) replaces it.
pub fn relative_dates_stay_fixed_and_absolute_dates_update(store: &Store) {
    let mut items = front_page();
    for (run, h) in [(0, 9), (1, 10), (2, 13)] {
        let mut it = items[0].clone();
        it.date = Some((t(h, run * 7) - Duration::days(2)).fixed_offset());
        it.date_relative = true;
        store.merge_items("f", &[it], t(h, run * 7)).unwrap();
    }
    let key = Store::identity_keys(&IdentityRules::default(), &items[..1]).remove(0);
    let stored = store.item("f", &key).unwrap().unwrap();
    assert_eq!(
        stored.page_date,
        Some((t(9, 0) - Duration::days(2)).fixed_offset())
    );
    items[0].date = Some(t(8, 0).fixed_offset());
    store.merge_items("f", &items[..1], t(14, 0)).unwrap();
    items[0].date = Some(t(8, 30).fixed_offset());
    store.merge_items("f", &items[..1], t(15, 0)).unwrap();
    let stored = store.item("f", &key).unwrap().unwrap();
    assert_eq!(stored.page_date, Some(t(8, 30).fixed_offset()));
}

/// A date-only "today" is read as noon; seen at 09:00 it would be
/// dated in the future: it is dated at its first sight instead, and a
/// day's items keep the page order. Yesterday's noon stays.
pub fn date_only_items_are_never_dated_in_the_future(store: &Store) {
    let mut items = front_page();
    items[0].date = Some(t(12, 0).fixed_offset());
    items[1].date = Some(t(12, 0).fixed_offset());
    items[2].date = Some((t(12, 0) - Duration::days(1)).fixed_offset());
    store.merge_items("f", &items, t(9, 0)).unwrap();
    let published = store
        .published_items("f", t(9, 0), &keep(10, None))
        .unwrap();
    let dates: Vec<_> = published
        .iter()
        .map(|i| i.to_item().date.unwrap())
        .collect();
    assert_eq!(
        dates,
        [
            t(9, 0).fixed_offset(),
            (t(9, 0) - Duration::seconds(1)).fixed_offset(),
            (t(12, 0) - Duration::days(1)).fixed_offset(),
        ]
    );
}

pub fn link_normalization_drops_tracking_and_fragment_only(_store: &Store) {
    let u = |s: &str| Url::parse(s).unwrap();
    let normalized_link = |l: &Url| IdentityRules::default().key(l);
    assert_eq!(
        normalized_link(&u(
            "https://News.Example.org/a/?id=7&utm_source=x&fbclid=Z&p=2#top"
        )),
        "https://news.example.org/a/?id=7&p=2"
    );
    assert_eq!(
        normalized_link(&u("https://example.org/a?gclid=1&UTM_Medium=m")),
        "https://example.org/a"
    );
    // Trailing slash is kept as is: /a and /a/ are different pages.
    assert_ne!(
        normalized_link(&u("https://example.org/a/")),
        normalized_link(&u("https://example.org/a"))
    );
}

pub fn validators_are_dropped_when_config_hash_changes(store: &Store) {
    let url = "https://news.example.org/latest";
    assert_eq!(store.validators("city", url, "cfg1").unwrap(), None);
    let v = CachedValidators {
        etag: Some("W/\"5e1-abc\"".into()),
        last_modified: Some("Fri, 20 Nov 2026 07:55:00 GMT".into()),
    };
    store.save_validators("city", url, "cfg1", &v).unwrap();
    assert_eq!(
        store.validators("city", url, "cfg1").unwrap(),
        Some(v.clone())
    );
    assert_eq!(store.validators("city", url, "cfg2").unwrap(), None);
    assert_eq!(store.validators("other", url, "cfg1").unwrap(), None);
    let v2 = CachedValidators {
        etag: None,
        last_modified: Some("Fri, 20 Nov 2026 08:55:00 GMT".into()),
    };
    store.save_validators("city", url, "cfg2", &v2).unwrap();
    assert_eq!(store.validators("city", url, "cfg2").unwrap(), Some(v2));
    assert_eq!(store.validators("city", url, "cfg1").unwrap(), None);
    store.clear_validators("city").unwrap();
    assert_eq!(store.validators("city", url, "cfg2").unwrap(), None);
}

pub fn body_attempts_count_and_limit_refetches(store: &Store) {
    let mut page = front_page();
    page[2].body_html = Some("<p>Lunch details.</p>".into());
    let keys = store.merge_items("city", &page, t(8, 0)).unwrap().new_keys;
    assert_eq!(
        store
            .items_needing_body("city", &keys, 3, t(23, 0))
            .unwrap(),
        keys[..2]
    );
    store
        .record_body_attempt("city", &keys[0], Some("<p>Budget.</p>"), t(8, 0))
        .unwrap();
    for _ in 0..3 {
        store
            .record_body_attempt("city", &keys[1], None, t(8, 0))
            .unwrap();
    }
    assert!(
        store
            .items_needing_body("city", &keys, 3, t(23, 0))
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store
            .items_needing_body("city", &keys, 4, t(23, 0))
            .unwrap(),
        [keys[1].clone()]
    );
    assert_eq!(
        store.item("city", &keys[1]).unwrap().unwrap().body_attempts,
        3
    );
    // A failed body waits its backoff: 15 min after the 1st failure.
    store.clear_bodies("city").unwrap();
    store
        .record_body_attempt("city", &keys[0], None, t(8, 0))
        .unwrap();
    let due = |at| {
        store
            .items_needing_body("city", &keys[..1], 3, at)
            .unwrap()
            .len()
    };
    assert_eq!((due(t(8, 14)), due(t(8, 15))), (0, 1));
    store
        .record_body_attempt("city", &keys[0], None, t(8, 15))
        .unwrap();
    assert_eq!((due(t(8, 44)), due(t(8, 45))), (0, 1));
    store
        .record_body_attempt("city", &keys[0], Some("<p>Budget.</p>"), t(8, 45))
        .unwrap();
    store
        .record_body_attempt("city", &keys[2], Some("<p>Lunch details.</p>"), t(8, 45))
        .unwrap();
    // A later merge without bodies keeps the stored ones.
    store.merge_items("city", &front_page(), t(9, 0)).unwrap();
    let lunch = store.item("city", &keys[2]).unwrap().unwrap();
    assert_eq!(lunch.body_html.as_deref(), Some("<p>Lunch details.</p>"));
    assert_eq!(store.clear_bodies("city").unwrap(), 2);
    assert_eq!(
        store
            .items_needing_body("city", &keys, 1, t(23, 0))
            .unwrap(),
        keys
    );
    let err = store.record_body_attempt("city", "https://nowhere.example/", None, t(8, 0));
    assert!(matches!(err, Err(StateError::UnknownItem { .. })));
}

pub fn run_history_is_newest_first_and_pruned(store: &Store) {
    let start = t(0, 0);
    for i in 0..(MAX_RUNS_PER_FEED + 25) {
        let status = if i % 10 == 9 { "failed" } else { "published" };
        let mut r = run(start + Duration::minutes(15 * i as i64), status, 10 + i % 3);
        r.new_items = i;
        store.record_run("city", &r).unwrap();
    }
    store
        .record_run("other", &run(start, "not_modified", 0))
        .unwrap();
    // A redesign: degraded runs, a 304 and a failure after the last good run.
    let later = start + Duration::days(30);
    for (i, status) in ["degraded", "not_modified", "degraded", "failed", "degraded"]
        .into_iter()
        .enumerate()
    {
        let mut r = run(later + Duration::hours(i as i64), status, 30 + i);
        r.pattern = Some("main > div.grid > article".into());
        store.record_run("other", &r).unwrap();
    }
    let streak = store.degraded_streak("other", 50).unwrap();
    let counts: Vec<usize> = streak.iter().map(|o| o.records).collect();
    assert_eq!(counts, [34, 32, 30]);
    assert!(store.degraded_streak("city", 50).unwrap().is_empty());
    let all = store.recent_runs("city", 1000).unwrap();
    assert_eq!(all.len(), MAX_RUNS_PER_FEED);
    assert_eq!(all[0].new_items, MAX_RUNS_PER_FEED + 24);
    assert_eq!(all.last().unwrap().new_items, 25);
    assert!(all.windows(2).all(|w| w[0].started > w[1].started));
    assert_eq!(
        all.iter()
            .find(|r| r.status == "failed")
            .unwrap()
            .error
            .as_deref(),
        Some("HTTP 503 Service Unavailable")
    );
    let good = store.good_runs("city", 5).unwrap();
    assert_eq!(good.len(), 5);
    assert_eq!(good[0].records, 10 + (MAX_RUNS_PER_FEED + 24) % 3);
    assert_eq!(store.recent_runs("other", 10).unwrap().len(), 6);
    store.forget_feed("city").unwrap();
    assert!(store.recent_runs("city", 3).unwrap().is_empty());
    assert_eq!(store.recent_runs("other", 10).unwrap().len(), 6);
}

pub fn pruning_bounds_storage_but_keeps_current_items(store: &Store) {
    let k = keep(2, Some(1));
    // 30 one-story runs, one a day: only 10 × max_items survive.
    for d in 0..30 {
        let item = story(&format!("day-{d}"), &format!("Story of day {d}"), "", None);
        store
            .merge_items_keeping("city", &[item], t(8, 0) + Duration::days(d), &k)
            .unwrap();
    }
    assert_eq!(store.item_count("city").unwrap(), 20);
    assert!(
        store
            .item("city", "https://news.example.org/2026/11/day-9")
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .item("city", "https://news.example.org/2026/11/day-10")
            .unwrap()
            .is_some()
    );
    // 200 days later nothing but the current page is left; a page larger
    // than the cap is kept whole.
    let page: Vec<Item> = (0..25)
        .map(|i| story(&format!("big-{i}"), &format!("Big {i}"), "", None))
        .collect();
    let later = t(8, 0) + Duration::days(230);
    store.merge_items_keeping("city", &page, later, &k).unwrap();
    assert_eq!(store.item_count("city").unwrap(), 25);
    assert_eq!(
        store
            .prune_items("city", &k, later + Duration::days(400))
            .unwrap(),
        0
    );
}

pub fn a_run_that_never_finished_is_recorded_as_failed_once(store: &Store) {
    let t0 = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
    store.mark_run_started("news", t0).unwrap();
    store.mark_run_started("blog", t0).unwrap();
    // blog's run finished: its mark goes with the recorded run.
    let done = RunRow {
        started: t0,
        duration_ms: 10,
        status: "published".into(),
        records: 3,
        new_items: 3,
        pattern: None,
        error: None,
    };
    store.record_run("blog", &done).unwrap();
    let settled = store.settle_unfinished_runs().unwrap();
    assert_eq!(settled, vec![("news".to_string(), t0)]);
    let runs = store.recent_runs("news", 5).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].status, "failed");
    assert_eq!(runs[0].started, t0);
    assert!(runs[0].error.as_deref().unwrap().contains("did not finish"));
    assert!(
        store.settle_unfinished_runs().unwrap().is_empty(),
        "settled once"
    );
    assert_eq!(store.recent_runs("blog", 5).unwrap()[0].status, "published");
}
