//! robots.txt: whether a URL may be fetched, per origin, with the rules for
//! our user-agent token (RFC 9309, parsed by `texting_robots`).
//!
//! Invariants:
//! - `/robots.txt` is fetched at most once per origin per freshness period,
//!   even when many checks for that origin run at once (they wait for the
//!   one fetch): 24 h after an answer, 1 h after a failure.
//! - 2xx → the file's rules (only its first [`MAX_ROBOTS_BYTES`] are read);
//!   4xx (except 429) → everything allowed; 429, 5xx and network failures →
//!   nothing allowed on that origin until the retry (Google's rule: a site
//!   whose robots.txt cannot be read may be in trouble, so leave it alone).
//! - URLs other than http(s) have no robots.txt and are always allowed.
//! - A robots.txt the fetcher refuses to request (its address policy:
//!   a private address without `allow_private_addresses`) is not an answer
//!   from the site: [`RobotsCache::check`] reports it as
//!   [`RobotsVerdict::Refused`] and nothing is cached, so fixing the config
//!   takes effect on the next run.
//! - The cache holds at most [`MAX_ORIGINS`] origins; beyond that, expired
//!   entries go first, then the oldest.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use texting_robots::Robot;
use tokio::time::Instant;
use url::Url;

use crate::fetch::politeness::MAX_CRAWL_DELAY;
use crate::fetch::{FetchError, Fetcher};

/// The user-agent token matched against `User-agent:` lines when the
/// configured user agent has none.
pub const ROBOTS_TOKEN: &str = "feedmine";
/// Bytes of robots.txt read; rules past this are ignored (Google's 500 KiB).
pub const MAX_ROBOTS_BYTES: u64 = 500 * 1024;
/// How long a fetched (or 4xx) robots.txt is trusted.
pub const FRESH_FOR: Duration = Duration::from_secs(24 * 3600);
/// How long an unreachable robots.txt (5xx, 429, network) blocks its origin
/// before it is fetched again.
pub const RETRY_UNREACHABLE_AFTER: Duration = Duration::from_secs(3600);
/// Origins remembered at most.
pub const MAX_ORIGINS: usize = 1024;

/// What [`RobotsCache::check`] found.
#[derive(Debug)]
pub enum RobotsVerdict {
    /// The site's rules let us fetch the URL (or it has no robots.txt).
    Allowed,
    /// The site's robots.txt forbids it, or the site is unreachable.
    Disallowed,
    /// robots.txt was not requested: our own address policy refused it.
    Refused(FetchError),
}

/// What an origin's robots.txt says.
#[derive(Debug)]
enum Rules {
    /// 4xx, or a file that could not be parsed into any rule.
    AllowAll,
    /// Unreachable: 5xx, 429 or a network failure.
    DisallowAll,
    /// The parsed rules for our token.
    Parsed(Box<Robot>),
}

#[derive(Debug)]
struct Entry {
    rules: Rules,
    fetched_at: Instant,
    expires_at: Instant,
}

impl Entry {
    fn allows(&self, url: &Url) -> bool {
        match &self.rules {
            Rules::AllowAll => true,
            Rules::DisallowAll => false,
            Rules::Parsed(robot) => robot.allowed(url.as_str()),
        }
    }

    fn crawl_delay(&self) -> Option<Duration> {
        let Rules::Parsed(robot) = &self.rules else {
            return None;
        };
        let seconds = robot.delay?;
        (seconds.is_finite() && seconds > 0.0)
            .then(|| Duration::from_secs_f32(seconds.min(MAX_CRAWL_DELAY.as_secs_f32())))
    }
}

/// One origin's cache slot.
#[derive(Debug, Default)]
struct Slot {
    entry: Option<Arc<Entry>>,
    /// Held while fetching, so concurrent checks wait for one fetch.
    fetching: Arc<tokio::sync::Mutex<()>>,
}

/// Per-origin robots.txt rules, shared by all feeds of a daemon.
#[derive(Debug)]
pub struct RobotsCache {
    token: String,
    origins: Mutex<HashMap<String, Slot>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The robots.txt URL and cache key of `url`'s origin (`None`: not http(s)).
fn robots_location(url: &Url) -> Option<(String, Url)> {
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return None;
    }
    let origin = url.origin().ascii_serialization();
    let robots = Url::parse(&format!("{origin}/robots.txt")).ok()?;
    Some((origin, robots))
}

/// The product token of a user agent: `feedmine/0.1 (+https://…)` → `feedmine`.
fn product_token(user_agent: &str) -> String {
    let token: String = user_agent
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    if token.is_empty() {
        ROBOTS_TOKEN.to_owned()
    } else {
        token.to_ascii_lowercase()
    }
}

impl RobotsCache {
    /// A cache matching rules for the product token of `user_agent`
    /// (`feedmine` for the default user agent).
    pub fn new(user_agent: &str) -> RobotsCache {
        RobotsCache {
            token: product_token(user_agent),
            origins: Mutex::new(HashMap::new()),
        }
    }

    /// The token matched against `User-agent:` lines.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether robots.txt lets us fetch `url`, fetching it with `fetcher`
    /// when this origin's copy is missing or stale. When the fetcher has a
    /// politeness scheduler, the origin's crawl delay is applied to it.
    pub async fn allowed(&self, fetcher: &Fetcher, url: &Url) -> bool {
        matches!(self.check(fetcher, url).await, RobotsVerdict::Allowed)
    }

    /// [`RobotsCache::allowed`], telling a site's "no" from our own
    /// address policy's refusal to ask.
    pub async fn check(&self, fetcher: &Fetcher, url: &Url) -> RobotsVerdict {
        let Some((origin, robots_url)) = robots_location(url) else {
            return RobotsVerdict::Allowed;
        };
        let entry = match self.entry(fetcher, &origin, &robots_url).await {
            Ok(entry) => entry,
            Err(refused) => return RobotsVerdict::Refused(refused),
        };
        if let (Some(politeness), Some(delay), Some(host)) =
            (fetcher.politeness(), entry.crawl_delay(), url.host_str())
        {
            politeness.set_host_delay(host, delay);
        }
        if entry.allows(url) {
            RobotsVerdict::Allowed
        } else {
            RobotsVerdict::Disallowed
        }
    }

    /// The `Crawl-delay` for us in the cached robots.txt of `url`'s origin
    /// (capped at [`MAX_CRAWL_DELAY`]); `None` when absent or not cached.
    pub fn crawl_delay(&self, url: &Url) -> Option<Duration> {
        let (origin, _) = robots_location(url)?;
        let origins = lock(&self.origins);
        origins.get(&origin)?.entry.as_ref()?.crawl_delay()
    }

    /// Origins whose robots.txt answer is cached (fresh or not).
    pub fn len(&self) -> usize {
        lock(&self.origins)
            .values()
            .filter(|slot| slot.entry.is_some())
            .count()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fresh entry for `origin`, fetching it if needed (one fetch at a
    /// time per origin).
    async fn entry(
        &self,
        fetcher: &Fetcher,
        origin: &str,
        robots_url: &Url,
    ) -> Result<Arc<Entry>, FetchError> {
        let fetching = {
            let mut origins = lock(&self.origins);
            if let Some(entry) = fresh(origins.get(origin)) {
                return Ok(entry);
            }
            if !origins.contains_key(origin) {
                make_room(&mut origins);
            }
            Arc::clone(&origins.entry(origin.to_owned()).or_default().fetching)
        };
        let _fetch_turn = fetching.lock().await;
        // Another check may have fetched it while we waited.
        if let Some(entry) = fresh(lock(&self.origins).get(origin)) {
            return Ok(entry);
        }
        let entry = Arc::new(self.fetch_rules(fetcher, robots_url).await?);
        let mut origins = lock(&self.origins);
        if !origins.contains_key(origin) {
            make_room(&mut origins);
        }
        let slot = origins.entry(origin.to_owned()).or_default();
        slot.entry = Some(Arc::clone(&entry));
        Ok(entry)
    }

    /// The rules at `robots_url`; `Err` only when the fetcher refused to
    /// request it (address policy), which is not cached.
    async fn fetch_rules(&self, fetcher: &Fetcher, robots_url: &Url) -> Result<Entry, FetchError> {
        let now = Instant::now();
        let (rules, fresh_for) = match fetcher.fetch_prefix(robots_url, MAX_ROBOTS_BYTES).await {
            Ok(body) => match Robot::new(&self.token, &body.bytes) {
                Ok(robot) => (Rules::Parsed(Box::new(robot)), FRESH_FOR),
                Err(e) => {
                    tracing::warn!(url = %robots_url, "unparsable robots.txt, treated as allowing all: {e:#}");
                    (Rules::AllowAll, FRESH_FOR)
                }
            },
            Err(FetchError::Status { status, .. })
                if status != 429 && !(500..600).contains(&status) =>
            {
                (Rules::AllowAll, FRESH_FOR)
            }
            Err(refused @ FetchError::Blocked { .. }) => return Err(refused),
            Err(e) => {
                tracing::info!(url = %robots_url, "robots.txt unreachable, origin paused for an hour: {e:#}");
                (Rules::DisallowAll, RETRY_UNREACHABLE_AFTER)
            }
        };
        Ok(Entry {
            rules,
            fetched_at: now,
            expires_at: now + fresh_for,
        })
    }
}

/// The slot's entry if it has not expired.
fn fresh(slot: Option<&Slot>) -> Option<Arc<Entry>> {
    let entry = slot?.entry.as_ref()?;
    (entry.expires_at > Instant::now()).then(|| Arc::clone(entry))
}

/// Keeps the cache under [`MAX_ORIGINS`] before one more origin is added:
/// drops expired entries, then the oldest one not being fetched.
fn make_room(origins: &mut HashMap<String, Slot>) {
    if origins.len() < MAX_ORIGINS {
        return;
    }
    let now = Instant::now();
    let idle = |slot: &Slot| Arc::strong_count(&slot.fetching) == 1;
    origins
        .retain(|_, slot| !idle(slot) || slot.entry.as_ref().is_some_and(|e| e.expires_at > now));
    if origins.len() < MAX_ORIGINS {
        return;
    }
    let oldest = origins
        .iter()
        .filter(|(_, slot)| idle(slot))
        .min_by_key(|(_, slot)| slot.entry.as_ref().map(|e| e.fetched_at))
        .map(|(origin, _)| origin.clone());
    if let Some(origin) = oldest {
        origins.remove(&origin);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_token_of_user_agents() {
        assert_eq!(product_token(crate::fetch::DEFAULT_USER_AGENT), "feedmine");
        assert_eq!(product_token("MyReader/2.0"), "myreader");
        assert_eq!(product_token("  "), "feedmine");
    }

    #[test]
    fn robots_location_is_per_origin() {
        let url = Url::parse("https://user:pw@news.example.org:8443/a/b?x=1#f").unwrap();
        let (origin, robots) = robots_location(&url).unwrap();
        assert_eq!(origin, "https://news.example.org:8443");
        assert_eq!(robots.as_str(), "https://news.example.org:8443/robots.txt");
        assert!(robots_location(&Url::parse("file:///tmp/a.html").unwrap()).is_none());
    }

    #[test]
    fn entry_rules_and_capped_crawl_delay() {
        let txt = b"User-agent: *\nDisallow: /\n\nUser-agent: feedmine\nDisallow: /private/\nCrawl-delay: 600\n";
        let robot = Robot::new("feedmine", txt).unwrap();
        let now = Instant::now();
        let entry = Entry {
            rules: Rules::Parsed(Box::new(robot)),
            fetched_at: now,
            expires_at: now + FRESH_FOR,
        };
        assert!(entry.allows(&Url::parse("https://a.example/news/1").unwrap()));
        assert!(!entry.allows(&Url::parse("https://a.example/private/x").unwrap()));
        assert_eq!(entry.crawl_delay(), Some(MAX_CRAWL_DELAY));
    }

    #[test]
    fn make_room_drops_expired_then_oldest() {
        let now = Instant::now();
        let mut origins = HashMap::new();
        for i in 0..MAX_ORIGINS {
            let expires_at = if i == 7 {
                now // expired
            } else {
                now + FRESH_FOR
            };
            let entry = Entry {
                rules: Rules::AllowAll,
                fetched_at: now + Duration::from_secs(i as u64),
                expires_at,
            };
            origins.insert(
                format!("https://h{i}.example"),
                Slot {
                    entry: Some(Arc::new(entry)),
                    fetching: Arc::default(),
                },
            );
        }
        make_room(&mut origins);
        assert_eq!(origins.len(), MAX_ORIGINS - 1);
        assert!(!origins.contains_key("https://h7.example"));
        let newest = Entry {
            rules: Rules::DisallowAll,
            fetched_at: now + FRESH_FOR,
            expires_at: now + FRESH_FOR,
        };
        origins.insert(
            "https://new.example".into(),
            Slot {
                entry: Some(Arc::new(newest)),
                fetching: Arc::default(),
            },
        );
        // Full again, nothing expired: the oldest fetched entry goes.
        make_room(&mut origins);
        assert_eq!(origins.len(), MAX_ORIGINS - 1);
        assert!(!origins.contains_key("https://h0.example"));
        assert!(origins.contains_key("https://new.example"));
    }
}
