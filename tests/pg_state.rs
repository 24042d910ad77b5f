//! The state's behaviour on both backends: every case of
//! `common/state_cases.rs` runs on a fresh SQLite file and on a fresh
//! database of a throw-away PostgreSQL 15 cluster (`common/pg.rs`; skipped
//! with one line when PostgreSQL is not installed), plus what only the
//! PostgreSQL backend has: its migrations, the refusal of a newer schema,
//! and a password that never shows in an error.

#[path = "common/state_cases.rs"]
mod cases;

use feedmine::state::Store;

/// Each case on a fresh SQLite file.
#[test]
fn sqlite_backend_passes_every_case() {
    for (name, case) in cases::ALL {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("state.db")).unwrap();
        eprintln!("sqlite: {name}");
        case(&store);
    }
}

#[path = "common/pg.rs"]
mod pg;

use std::path::Path;

use feedmine::state::{StateError, StateLocation};

fn location(url: &str) -> StateLocation {
    StateLocation::parse(url, Path::new(".")).unwrap()
}

fn open_pg(url: &str) -> Store {
    Store::open_location(&location(url)).unwrap()
}

/// Each case on a fresh database of one throw-away cluster.
#[test]
fn postgres_backend_passes_every_case() {
    let Some(cluster) = pg::PgCluster::start() else {
        return;
    };
    for (i, (name, case)) in cases::ALL.iter().enumerate() {
        let store = open_pg(&cluster.create_database(&format!("case{i}")));
        eprintln!("postgres: {name}");
        case(&store);
    }
}

#[test]
fn postgres_migrations_run_once_and_a_newer_schema_is_refused() {
    let Some(cluster) = pg::PgCluster::start() else {
        return;
    };
    let url = cluster.create_database("mig");
    // Three instances starting at once, then a restart: migrated once.
    let openers: Vec<_> = (0..3)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || drop(open_pg(&url)))
        })
        .collect();
    for o in openers {
        o.join().unwrap();
    }
    drop(open_pg(&url));
    let supported = feedmine::state::postgres::SCHEMA_VERSION;
    assert_eq!(
        cluster.psql("mig", "SELECT count(*), max(version) FROM schema_version"),
        format!("{supported}|{supported}")
    );
    // A newer feedmine migrated the database further: refused, untouched.
    cluster.psql(
        "mig",
        "INSERT INTO schema_version (version, applied_ms) VALUES (99, 0)",
    );
    let err = Store::open_location(&location(&url)).unwrap_err();
    assert!(
        matches!(err, StateError::TooNew { found: 99, .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("127.0.0.1") && text.contains("upgrade feedmine"),
        "{text}"
    );
    assert_eq!(
        cluster.psql("mig", "SELECT count(*) FROM schema_version"),
        format!("{}", supported + 1)
    );
}

#[test]
fn postgres_password_never_shows_in_errors() {
    let Some(cluster) = pg::PgCluster::start() else {
        return;
    };
    let secret = "Sup3r-S3cret";
    let missing_db = format!(
        "postgres://postgres:{secret}@127.0.0.1:{}/no_such_db",
        cluster.port()
    );
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        drop(l);
        format!("postgres://feeds:{secret}@127.0.0.1:{port}/feeds")
    };
    for url in [missing_db, closed] {
        let loc = location(&url);
        assert!(!format!("{loc:?}").contains(secret));
        assert!(!loc.label().contains(secret));
        let err = Store::open_location(&loc).unwrap_err();
        let text = format!("{err} / {err:?}");
        assert!(!text.contains(secret), "{text}");
        assert!(text.contains("127.0.0.1"), "{text}");
    }
}

/// A merge that fails half way (a trigger raises on its 3rd row) leaves
/// nothing behind, as in SQLite, and the store stays usable.
#[test]
fn postgres_failed_merge_leaves_nothing_behind() {
    let Some(cluster) = pg::PgCluster::start() else {
        return;
    };
    let store = open_pg(&cluster.create_database("tx"));
    let (t7, t8) = (cases::t(7, 0), cases::t(8, 0));
    store
        .merge_items("city", &cases::front_page()[..1], t7)
        .unwrap();
    cluster.psql(
        "tx",
        "CREATE FUNCTION on_fire() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$;
         CREATE TRIGGER fail_lunches BEFORE INSERT ON items FOR EACH ROW
           WHEN (NEW.title LIKE 'Free school%') EXECUTE FUNCTION on_fire();",
    );
    let err = store
        .merge_items("city", &cases::front_page(), t8)
        .unwrap_err();
    assert!(err.to_string().contains("merge items"), "{err}");
    assert!(err.to_string().contains("disk on fire"), "{err}");
    assert_eq!(store.item_count("city").unwrap(), 1);
    let only = store
        .published_items("city", t8, &cases::keep(10, None))
        .unwrap();
    assert_eq!(only[0].last_seen, t7, "the update was rolled back too");
    cluster.psql("tx", "DROP TRIGGER fail_lunches ON items");
    let m = store.merge_items("city", &cases::front_page(), t8).unwrap();
    assert_eq!(m.new_keys.len(), 2);
}

/// Published documents: kept only in a shared state; the bytes come back
/// only when the caller's tag is stale; the same bytes stored again keep
/// their first publish time; forgetting a feed drops its documents.
#[test]
fn documents_are_kept_in_postgres_only() {
    use feedmine::state::documents::{Document, DocumentLookup};
    let doc = |name: &str, feed: Option<&str>, body: &str, at| {
        Document::new(name.into(), feed, body.as_bytes().to_vec(), at)
    };
    let (t7, t8) = (cases::t(7, 0), cases::t(8, 0));
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(&dir.path().join("state.db")).unwrap();
    sqlite
        .store_documents(&[doc("a.xml", Some("a"), "<rss/>", t7)])
        .unwrap();
    assert_eq!(
        sqlite.document("a.xml", None).unwrap(),
        DocumentLookup::Missing
    );

    let Some(cluster) = pg::PgCluster::start() else {
        return;
    };
    let store = open_pg(&cluster.create_database("docs"));
    let first = doc("a.xml", Some("a"), "<rss>1</rss>", t7);
    let xsl = doc("feed.xsl", None, "<xsl/>", t7);
    store
        .store_documents(&[first.clone(), xsl.clone()])
        .unwrap();
    assert_eq!(
        store.document("a.xml", None).unwrap(),
        DocumentLookup::Found(first.clone())
    );
    assert_eq!(
        store.document("a.xml", Some(&first.etag)).unwrap(),
        DocumentLookup::Unchanged
    );
    assert_eq!(
        store.document("b.xml", None).unwrap(),
        DocumentLookup::Missing
    );
    let mut tags = store.document_tags().unwrap();
    tags.sort();
    assert_eq!(
        tags,
        vec![
            ("a.xml".to_string(), first.etag.clone()),
            ("feed.xsl".to_string(), xsl.etag.clone())
        ]
    );
    assert!(sqlite.document_tags().unwrap().is_empty());
    // Same bytes at 8:00: still first published at 7:00.
    store
        .store_documents(&[doc("a.xml", Some("a"), "<rss>1</rss>", t8)])
        .unwrap();
    assert_eq!(
        store.document("a.xml", None).unwrap(),
        DocumentLookup::Found(first.clone())
    );
    let second = doc("a.xml", Some("a"), "<rss>2</rss>", t8);
    store
        .store_documents(std::slice::from_ref(&second))
        .unwrap();
    assert_eq!(
        store.document("a.xml", Some(&first.etag)).unwrap(),
        DocumentLookup::Found(second)
    );
    store.forget_feed("a").unwrap();
    assert_eq!(
        store.document("a.xml", None).unwrap(),
        DocumentLookup::Missing
    );
    assert_eq!(
        store.document("feed.xsl", None).unwrap(),
        DocumentLookup::Found(xsl)
    );
    store.ping().unwrap();
}
