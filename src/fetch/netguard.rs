//! Server-side request forgery guard: decides which addresses a fetch may
//! connect to when the URL was not chosen by the user (links found on a list
//! page, redirects).
//!
//! Invariants:
//! - [`is_public`] is a pure function over one address; every special-purpose
//!   range (loopback, private, link-local, CGNAT, documentation, benchmarking,
//!   multicast, reserved, IPv6 unique-local and site-local) is refused, and so
//!   are the IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64,
//!   6to4) whenever the carried address would be refused, plus all of Teredo.
//! - [`PublicResolver`] is the DNS resolver of a public-only client: it drops
//!   every non-public address and fails when none is left. The addresses it
//!   returns are the ones connected to, so a name that changes its answer
//!   between a check and the connection (DNS rebinding) gains nothing.
//! - [`check_url`] covers what the resolver never sees: the scheme and
//!   IP-literal hosts (`http://127.0.0.1/`, `http://2130706433/`, `[::1]`).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use url::{Host, Url};

/// Which addresses a fetcher may connect to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AddressPolicy {
    /// Anything: the URL was chosen by the user (a feed's list page).
    #[default]
    AllowAll,
    /// Public unicast addresses only, over http(s): for URLs taken from
    /// fetched pages, which an attacker may control.
    PublicOnly,
}

/// The special-purpose range an address belongs to (why it is not public).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    /// 0.0.0.0/8 and `::`.
    Unspecified,
    /// 127.0.0.0/8 and `::1`.
    Loopback,
    /// 10/8, 172.16/12, 192.168/16.
    Private,
    /// 100.64.0.0/10 (carrier-grade NAT).
    SharedCgnat,
    /// 169.254.0.0/16 except the metadata address, and fe80::/10.
    LinkLocal,
    /// 169.254.169.254, the cloud instance metadata service.
    CloudMetadata,
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    Documentation,
    /// 198.18.0.0/15 and 2001:2::/48.
    Benchmarking,
    /// 224.0.0.0/4 and ff00::/8.
    Multicast,
    /// 255.255.255.255.
    Broadcast,
    /// 240.0.0.0/4, 192.0.0.0/24, 192.88.99.0/24, 100::/64, ORCHID, and
    /// IPv6 outside 2000::/3.
    Reserved,
    /// fc00::/7.
    UniqueLocal,
    /// fec0::/10 (deprecated site-local).
    SiteLocal,
    /// 2001::/32: the tunnelled endpoint cannot be checked.
    Teredo,
    /// 64:ff9b:1::/48, local-use NAT64.
    LocalNat64,
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AddressClass::Unspecified => "unspecified address",
            AddressClass::Loopback => "loopback address",
            AddressClass::Private => "private address",
            AddressClass::SharedCgnat => "shared (CGNAT) address",
            AddressClass::LinkLocal => "link-local address",
            AddressClass::CloudMetadata => "cloud metadata address",
            AddressClass::Documentation => "documentation address",
            AddressClass::Benchmarking => "benchmarking address",
            AddressClass::Multicast => "multicast address",
            AddressClass::Broadcast => "broadcast address",
            AddressClass::Reserved => "reserved address",
            AddressClass::UniqueLocal => "unique local address",
            AddressClass::SiteLocal => "site-local address",
            AddressClass::Teredo => "Teredo address",
            AddressClass::LocalNat64 => "local-use NAT64 address",
        })
    }
}

/// Why a URL or address was refused (carried by
/// `fetch::FetchError::Blocked`; its `Display` names the address class).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockReason {
    /// The host is (or embeds) a non-public address.
    Address {
        /// The range it falls in.
        class: AddressClass,
        /// The address as written or resolved.
        ip: IpAddr,
    },
    /// Every address the name resolved to is non-public.
    NoPublicAddress {
        /// The name looked up.
        host: String,
        /// The first refused address, with its class.
        first: Box<BlockReason>,
    },
    /// A scheme other than http(s) where only those are allowed.
    Scheme {
        /// The first request or a redirect.
        hop: Hop,
        /// The scheme.
        scheme: String,
    },
    /// A URL without a host.
    NoHost,
    /// `localhost` or a name under it (RFC 6761: always loopback), refused
    /// by name where names are not resolved here (behind a proxy).
    LocalhostName(String),
    /// A name that only means something inside a network (single-label,
    /// `.internal`, `.local`, `.svc`, cloud metadata names), refused by name
    /// where names are not resolved here (behind a proxy).
    InternalName(String),
}

impl fmt::Display for BlockReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockReason::Address { class, ip } => write!(f, "{class} {ip}"),
            BlockReason::NoPublicAddress { host, first } => {
                write!(
                    f,
                    "{host} resolves only to non-public addresses (first: {first})"
                )
            }
            BlockReason::Scheme { hop, scheme } => write!(f, "{hop} to a {scheme}: URL"),
            BlockReason::NoHost => f.write_str("URL has no host"),
            BlockReason::LocalhostName(name) => write!(f, "loopback name {name}"),
            BlockReason::InternalName(name) => {
                write!(f, "internal name {name} (only meaningful inside a network)")
            }
        }
    }
}

/// Which step of a fetch a URL was met at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hop {
    /// The URL asked for.
    Request,
    /// A redirect target.
    Redirect,
}

impl fmt::Display for Hop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hop::Request => "request",
            Hop::Redirect => "redirect",
        })
    }
}

/// `None` when `ip` is a public unicast address, otherwise the special range
/// it belongs to.
pub fn classify(ip: IpAddr) -> Option<AddressClass> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Whether `ip` may be connected to under [`AddressPolicy::PublicOnly`].
pub fn is_public(ip: IpAddr) -> bool {
    classify(ip).is_none()
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], prefix: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn classify_v4(ip: Ipv4Addr) -> Option<AddressClass> {
    use AddressClass::*;
    // Most specific first: the metadata address is inside link-local, the
    // broadcast address inside 240/4.
    const TABLE: &[([u8; 4], u32, AddressClass)] = &[
        ([169, 254, 169, 254], 32, CloudMetadata),
        ([255, 255, 255, 255], 32, Broadcast),
        ([0, 0, 0, 0], 8, Unspecified),
        ([10, 0, 0, 0], 8, Private),
        ([100, 64, 0, 0], 10, SharedCgnat),
        ([127, 0, 0, 0], 8, Loopback),
        ([169, 254, 0, 0], 16, LinkLocal),
        ([172, 16, 0, 0], 12, Private),
        ([192, 0, 0, 0], 24, Reserved),
        ([192, 0, 2, 0], 24, Documentation),
        ([192, 88, 99, 0], 24, Reserved),
        ([192, 168, 0, 0], 16, Private),
        ([198, 18, 0, 0], 15, Benchmarking),
        ([198, 51, 100, 0], 24, Documentation),
        ([203, 0, 113, 0], 24, Documentation),
        ([224, 0, 0, 0], 4, Multicast),
        ([240, 0, 0, 0], 4, Reserved),
    ];
    TABLE
        .iter()
        .find(|(net, prefix, _)| in_v4(ip, *net, *prefix))
        .map(|(_, _, class)| *class)
}

fn in_v6(ip: Ipv6Addr, net: [u16; 8], prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
    u128::from(ip) & mask == u128::from(Ipv6Addr::from(net)) & mask
}

/// The IPv4 address in the low 32 bits.
fn low_v4(ip: Ipv6Addr) -> Ipv4Addr {
    Ipv4Addr::from((u128::from(ip) & 0xffff_ffff) as u32)
}

fn classify_v6(ip: Ipv6Addr) -> Option<AddressClass> {
    use AddressClass::*;
    if ip.is_unspecified() {
        return Some(Unspecified);
    }
    if ip.is_loopback() {
        return Some(Loopback);
    }
    // Forms that carry an IPv4 address reach that address: judge it.
    // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64).
    if in_v6(ip, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96)
        || in_v6(ip, [0; 8], 96)
        || in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96)
    {
        return classify_v4(low_v4(ip));
    }
    // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
    if in_v6(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        let bits = (u128::from(ip) >> 80) as u32;
        return classify_v4(Ipv4Addr::from(bits));
    }
    const TABLE: &[([u16; 8], u32, AddressClass)] = &[
        ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, LocalNat64),
        ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, Reserved),
        ([0x2001, 0x2, 0, 0, 0, 0, 0, 0], 48, Benchmarking),
        ([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, Reserved),
        ([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, Reserved),
        ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, Documentation),
        ([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, Teredo),
        ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, Documentation),
        ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, UniqueLocal),
        ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, LinkLocal),
        ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, SiteLocal),
        ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, Multicast),
    ];
    if let Some((_, _, class)) = TABLE
        .iter()
        .find(|(net, prefix, _)| in_v6(ip, *net, *prefix))
    {
        return Some(*class);
    }
    // Only 2000::/3 is allocated as global unicast.
    if !in_v6(ip, [0x2000, 0, 0, 0, 0, 0, 0, 0], 3) {
        return Some(Reserved);
    }
    None
}

/// Checks what the resolver never sees: the scheme (http or https only) and
/// an IP-literal host. Host names pass here and are checked at resolution.
/// `hop` names the step in the message.
pub fn check_url(url: &Url, hop: Hop) -> Result<(), BlockReason> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(BlockReason::Scheme {
            hop,
            scheme: url.scheme().to_owned(),
        });
    }
    let ip = match url.host() {
        None => return Err(BlockReason::NoHost),
        Some(Host::Domain(_)) => return Ok(()),
        Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
        Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
    };
    match classify(ip) {
        None => Ok(()),
        Some(class) => Err(BlockReason::Address { class, ip }),
    }
}

/// Refuses `localhost` and names under it. Only needed where names are not
/// resolved by [`PublicResolver`] (behind a proxy); elsewhere the resolver
/// refuses them with the addresses they resolve to.
pub fn check_name(url: &Url) -> Result<(), BlockReason> {
    let Some(Host::Domain(name)) = url.host() else {
        return Ok(());
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") {
        return Err(BlockReason::LocalhostName(name));
    }
    let internal_suffix = INTERNAL_SUFFIXES
        .iter()
        .any(|s| name.ends_with(s) || name == s[1..]);
    if !name.contains('.') || internal_suffix || METADATA_NAMES.contains(&name.as_str()) {
        return Err(BlockReason::InternalName(name));
    }
    Ok(())
}

/// Name suffixes that are private by convention or by standard
/// (RFC 6762 `.local`, RFC 8375 `.home.arpa`, ICANN's `.internal`,
/// Kubernetes' `.svc`/`.cluster.local`, common intranet suffixes).
const INTERNAL_SUFFIXES: &[&str] = &[
    ".internal",
    ".local",
    ".localdomain",
    ".home.arpa",
    ".lan",
    ".intranet",
    ".corp",
    ".svc",
    ".cluster.local",
];

/// Cloud metadata services reachable by name.
const METADATA_NAMES: &[&str] = &[
    "metadata.google.internal",
    "metadata.goog",
    "instance-data.ec2.internal",
    "metadata.azure.com",
];

/// The DNS resolver of a public-only client: system resolution
/// (`getaddrinfo` through tokio), minus every non-public address.
#[derive(Debug, Clone, Default)]
pub struct PublicResolver {
    /// Names resolved without filtering: the configured proxy, which the
    /// user chose and which may well live on a private network.
    exempt: Vec<String>,
}

impl PublicResolver {
    /// A resolver that filters every name except those in `exempt`
    /// (compared case-insensitively).
    pub fn new(exempt: Vec<String>) -> PublicResolver {
        PublicResolver {
            exempt: exempt.into_iter().map(|h| h.to_ascii_lowercase()).collect(),
        }
    }

    /// Resolves `host` and keeps the public addresses; fails with
    /// [`BlockReason::NoPublicAddress`] when none is left.
    pub async fn lookup(&self, host: &str) -> Result<Vec<SocketAddr>, ResolveError> {
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, 0))
            .await
            .map_err(|source| ResolveError::Lookup {
                host: host.to_owned(),
                source,
            })?
            .collect();
        if self.exempt.iter().any(|e| e.eq_ignore_ascii_case(host)) {
            return Ok(addrs);
        }
        let mut first_refused = None;
        let public: Vec<SocketAddr> = addrs
            .into_iter()
            .filter(|addr| match classify(addr.ip()) {
                None => true,
                Some(class) => {
                    first_refused.get_or_insert(BlockReason::Address {
                        class,
                        ip: addr.ip(),
                    });
                    false
                }
            })
            .collect();
        match (public.is_empty(), first_refused) {
            (true, Some(first)) => Err(ResolveError::Blocked(BlockReason::NoPublicAddress {
                host: host.to_owned(),
                first: Box::new(first),
            })),
            _ => Ok(public),
        }
    }
}

/// Why [`PublicResolver`] returned no address.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// The lookup itself failed (no such name, resolver down).
    #[error("could not resolve {host}")]
    Lookup {
        /// The name looked up.
        host: String,
        /// The system resolver's error.
        #[source]
        source: std::io::Error,
    },
    /// Every address was non-public.
    #[error("{0}")]
    Blocked(BlockReason),
}

impl reqwest::dns::Resolve for PublicResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let resolver = self.clone();
        Box::pin(async move {
            let addrs = resolver.lookup(name.as_str()).await?;
            let addrs: reqwest::dns::Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressClass::*;

    #[test]
    fn is_public_over_a_table() {
        let cases: &[(&str, Option<AddressClass>)] = &[
            // Public.
            ("8.8.8.8", None),
            ("1.1.1.1", None),
            ("93.184.215.14", None),
            ("172.15.255.255", None),
            ("172.32.0.1", None),
            ("100.63.255.255", None),
            ("100.128.0.1", None),
            ("192.169.0.1", None),
            ("198.17.255.255", None),
            ("198.20.0.1", None),
            ("223.255.255.255", None),
            ("2606:4700:4700::1111", None),
            ("2a00:1450:4001:82b::200e", None),
            ("::ffff:8.8.8.8", None),
            ("64:ff9b::808:808", None),
            ("2002:808:808::1", None),
            // IPv4 special ranges.
            ("0.0.0.0", Some(Unspecified)),
            ("0.1.2.3", Some(Unspecified)),
            ("127.0.0.1", Some(Loopback)),
            ("127.255.255.254", Some(Loopback)),
            ("10.0.0.1", Some(Private)),
            ("10.255.255.255", Some(Private)),
            ("172.16.0.1", Some(Private)),
            ("172.31.255.255", Some(Private)),
            ("192.168.1.1", Some(Private)),
            ("100.64.0.1", Some(SharedCgnat)),
            ("100.127.255.255", Some(SharedCgnat)),
            ("169.254.0.1", Some(LinkLocal)),
            ("169.254.169.254", Some(CloudMetadata)),
            ("192.0.0.8", Some(Reserved)),
            ("192.0.2.1", Some(Documentation)),
            ("198.51.100.7", Some(Documentation)),
            ("203.0.113.9", Some(Documentation)),
            ("198.18.0.1", Some(Benchmarking)),
            ("198.19.255.255", Some(Benchmarking)),
            ("192.88.99.1", Some(Reserved)),
            ("224.0.0.1", Some(Multicast)),
            ("239.255.255.250", Some(Multicast)),
            ("240.0.0.1", Some(Reserved)),
            ("255.255.255.255", Some(Broadcast)),
            // IPv6 special ranges.
            ("::", Some(Unspecified)),
            ("::1", Some(Loopback)),
            ("fc00::1", Some(UniqueLocal)),
            ("fd00::1", Some(UniqueLocal)),
            ("fe80::1", Some(LinkLocal)),
            ("febf::1", Some(LinkLocal)),
            ("fec0::1", Some(SiteLocal)),
            ("ff02::1", Some(Multicast)),
            ("2001:db8::1", Some(Documentation)),
            ("3fff::1", Some(Documentation)),
            ("2001:2::1", Some(Benchmarking)),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Some(Teredo)),
            ("100::1", Some(Reserved)),
            ("64:ff9b:1::a00:1", Some(LocalNat64)),
            ("4000::1", Some(Reserved)),
            // IPv6 forms of refused IPv4 addresses.
            ("::ffff:127.0.0.1", Some(Loopback)),
            ("::ffff:10.1.2.3", Some(Private)),
            ("::ffff:169.254.169.254", Some(CloudMetadata)),
            ("::127.0.0.1", Some(Loopback)),
            ("::192.168.0.1", Some(Private)),
            ("64:ff9b::7f00:1", Some(Loopback)),
            ("64:ff9b::a9fe:a9fe", Some(CloudMetadata)),
            ("2002:7f00:1::", Some(Loopback)),
            ("2002:c0a8:101::1", Some(Private)),
            ("2002:a9fe:a9fe::1", Some(CloudMetadata)),
        ];
        for (text, expected) in cases {
            let ip: IpAddr = text.parse().unwrap();
            assert_eq!(classify(ip), *expected, "{text}");
            assert_eq!(is_public(ip), expected.is_none(), "{text}");
        }
        assert_eq!(cases.len(), 65);
    }

    #[test]
    fn check_url_refuses_literals_and_schemes() {
        let refused = |s: &str| check_url(&Url::parse(s).unwrap(), Hop::Request).unwrap_err();
        // The url crate normalises numeric hosts, so these are literals too.
        assert_eq!(
            refused("http://2130706433/").to_string(),
            "loopback address 127.0.0.1"
        );
        assert_eq!(
            refused("http://0x7f.1/").to_string(),
            "loopback address 127.0.0.1"
        );
        assert_eq!(
            refused("http://0177.0.0.1/").to_string(),
            "loopback address 127.0.0.1"
        );
        assert_eq!(
            refused("http://[::ffff:7f00:1]/").to_string(),
            "loopback address ::ffff:127.0.0.1"
        );
        assert_eq!(
            refused("file:///etc/passwd").to_string(),
            "request to a file: URL"
        );
        assert!(matches!(
            refused("ftp://example.org/"),
            BlockReason::Scheme { .. }
        ));
        assert!(check_url(&Url::parse("https://example.org/a").unwrap(), Hop::Request).is_ok());
        assert!(check_url(&Url::parse("http://93.184.215.14/").unwrap(), Hop::Request).is_ok());
        // Names pass check_url (the resolver judges them) but not check_name.
        let localhost = Url::parse("http://LocalHost.:8080/").unwrap();
        assert!(check_url(&localhost, Hop::Request).is_ok());
        assert_eq!(
            check_name(&localhost).unwrap_err().to_string(),
            "loopback name localhost"
        );
        let sub = Url::parse("http://admin.localhost/").unwrap();
        assert!(check_name(&sub).is_err());
        let fine = Url::parse("http://localhost.example.org/").unwrap();
        assert!(check_name(&fine).is_ok());
    }

    #[tokio::test]
    async fn resolver_drops_loopback_names() {
        let err = PublicResolver::default()
            .lookup("localhost")
            .await
            .unwrap_err();
        assert!(
            matches!(
                &err,
                ResolveError::Blocked(BlockReason::NoPublicAddress { host, .. }) if host == "localhost"
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("loopback address"), "{err}");
        // Exempt names (the proxy) resolve unfiltered.
        let addrs = PublicResolver::new(vec!["LOCALHOST".into()])
            .lookup("localhost")
            .await
            .unwrap();
        assert!(addrs.iter().all(|a| a.ip().is_loopback()) && !addrs.is_empty());
    }
}
