//! Who the client is behind proxies. The operator lists the proxies it trusts
//! (`BACKEND_HTTP__TRUSTED_PROXIES`, addresses, CIDR ranges and host names), checked once
//! at start. A host name stands for the addresses it resolves to, looked up again every
//! 10 seconds and whenever a peer that is no trusted proxy first calls (so a proxy that
//! starts after this server is trusted from its first request), so a proxy whose
//! address the platform hands out (Compose's `frontend` container) is trusted alone,
//! not every private range it might be given.
//! A request from any other peer comes from that peer, whatever its `X-Forwarded-For`
//! says. From a trusted proxy, the header is read from the right — the hop each proxy
//! added — past every hop that is itself a trusted proxy: the first one that is not is
//! the client. What lies left of it was written by the client, so it is never read.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use ipnet::IpNet;

const RESOLVE_EVERY: Duration = Duration::from_secs(10);

/// The proxies whose `X-Forwarded-For` is believed; none by default.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies {
    ranges: Arc<[IpNet]>,
    hosts: Arc<[String]>,
    /// What `hosts` resolved to last.
    resolved: Arc<RwLock<Vec<IpAddr>>>,
    /// Peers that were no trusted proxy, and when the names were last looked up for one.
    misses: Arc<Mutex<HashMap<IpAddr, Instant>>>,
}

/// How many missed peers are remembered before the list starts again.
const MISSES_KEPT: usize = 4096;

impl TrustedProxies {
    /// Each entry an address (`10.0.0.5`, `::1`), a range (`10.0.0.0/8`, `fd00::/8`) or
    /// a host name (`frontend`); blank entries are skipped. The error names the entry and
    /// what was expected.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<Self, String> {
        let (mut ranges, mut hosts) = (Vec::new(), Vec::new());
        for entry in entries
            .iter()
            .map(|e| e.as_ref().trim())
            .filter(|e| !e.is_empty())
        {
            match range(entry) {
                Ok(range) => ranges.push(range),
                Err(_) if is_host_name(entry) => hosts.push(entry.to_owned()),
                Err(err) => return Err(err),
            }
        }
        Ok(Self {
            ranges: ranges.into(),
            hosts: hosts.into(),
            resolved: Arc::default(),
            misses: Arc::default(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty() && self.hosts.is_empty()
    }

    /// Looks the host names up now and then every 10 seconds, for as long as the
    /// runtime runs; a name that does not resolve (its container not started yet) is
    /// trusted from the first lookup that finds it.
    pub fn keep_resolving(&self) {
        if self.hosts.is_empty() {
            return;
        }
        let proxies = self.clone();
        tokio::spawn(async move {
            loop {
                proxies.resolve().await;
                tokio::time::sleep(RESOLVE_EVERY).await;
            }
        });
    }

    /// Looks the host names up again when `peer` is no trusted proxy and has not been
    /// looked up for within [`RESOLVE_EVERY`]: the proxy may have started (or moved)
    /// since the last lookup. Call it before [`TrustedProxies::client`].
    pub async fn refresh_for(&self, peer: IpAddr) {
        let peer = peer.to_canonical();
        if self.hosts.is_empty() || self.trusts(peer) {
            return;
        }
        {
            let mut misses = self.misses.lock().unwrap_or_else(|p| p.into_inner());
            if misses.get(&peer).is_some_and(|at| at.elapsed() < RESOLVE_EVERY) {
                return;
            }
            if misses.len() >= MISSES_KEPT {
                misses.clear();
            }
            misses.insert(peer, Instant::now());
        }
        self.resolve().await;
    }

    async fn resolve(&self) {
        let mut addresses = Vec::new();
        for host in self.hosts.iter() {
            match tokio::net::lookup_host((host.as_str(), 0)).await {
                Ok(found) => addresses.extend(found.map(|a| a.ip().to_canonical())),
                Err(err) => tracing::debug!(%host, %err, "a trusted proxy's name does not resolve (yet)"),
            }
        }
        *self.resolved.write().unwrap_or_else(|p| p.into_inner()) = addresses;
    }

    fn trusts(&self, address: IpAddr) -> bool {
        self.ranges.iter().any(|range| range.contains(&address))
            || self
                .resolved
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .contains(&address)
    }

    /// The client of a request from `peer` carrying these `X-Forwarded-For` values (each
    /// a comma-separated list, in the order the header lines came). When every hop is a
    /// trusted proxy, the leftmost is the client; a hop that is no address ends the walk
    /// at the proxy that passed it on.
    pub fn client<'a>(&self, peer: IpAddr, forwarded_for: impl IntoIterator<Item = &'a str>) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        let hops: Vec<&str> = forwarded_for.into_iter().flat_map(|v| v.split(',')).collect();
        for hop in hops.into_iter().rev() {
            let Some(address) = hop_address(hop) else {
                break;
            };
            client = address;
            if !self.trusts(client) {
                break;
            }
        }
        client
    }
}

/// A DNS name: labels of letters, digits and inner hyphens, at least one letter (so that
/// a mistyped address is not taken for one).
fn is_host_name(entry: &str) -> bool {
    entry.len() <= 253
        && entry.bytes().any(|b| b.is_ascii_alphabetic())
        && entry.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

fn range(entry: &str) -> Result<IpNet, String> {
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Ok(IpNet::from(address));
    }
    let range = entry.parse::<IpNet>().map_err(|_| {
        format!(
            "`{entry}` is not an IP address, a CIDR range (such as 10.0.0.0/8, 172.16.0.0/12 \
             or fd00::/8) or a host name"
        )
    })?;
    if range.trunc() != range {
        return Err(format!(
            "`{entry}` has bits set past its /{}: did you mean {}?",
            range.prefix_len(),
            range.trunc()
        ));
    }
    Ok(range)
}

/// A hop as proxies write it: an address, or one with a port (`1.2.3.4:80`, `[::1]:80`).
fn hop_address(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()
        .map(|address| address.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn proxies(entries: &[&str]) -> TrustedProxies {
        TrustedProxies::parse(entries).unwrap()
    }

    #[test]
    fn addresses_and_ranges_parse_and_blanks_are_skipped() {
        let trusted = proxies(&["10.0.0.0/8", " 192.0.2.7 ", "", "fd00::/8", "::1"]);
        for inside in ["10.1.2.3", "192.0.2.7", "fd12::1", "::1", "::ffff:10.9.9.9"] {
            assert!(trusted.trusts(ip(inside).to_canonical()), "{inside}");
        }
        for outside in ["11.0.0.1", "192.0.2.8", "fe80::1", "2001:db8::1"] {
            assert!(!trusted.trusts(ip(outside)), "{outside}");
        }
        assert!(proxies(&[] as &[&str]).is_empty());
        assert!(proxies(&[" "]).is_empty());
    }

    #[test]
    fn bad_entries_are_refused_with_what_was_meant() {
        let refused = |entry: &str| TrustedProxies::parse(&[entry]).unwrap_err();
        for bad in [
            "10.0.0.0/33",
            "10.0.0",
            "fd00::/129",
            "10.0.0.0/8/8",
            "*",
            "front_end",
            "-frontend",
            "frontend.",
        ] {
            assert!(
                refused(bad).contains("is not an IP address, a CIDR range"),
                "{bad}"
            );
        }
        assert_eq!(
            refused("192.168.1.0/16"),
            "`192.168.1.0/16` has bits set past its /16: did you mean 192.168.0.0/16?"
        );
    }

    #[tokio::test]
    async fn a_host_name_stands_for_what_it_resolves_to() {
        let trusted = proxies(&["localhost", "frontend.invalid"]);
        assert!(!trusted.is_empty());
        // Before the first lookup, nothing is trusted by name.
        assert_eq!(trusted.client(ip("127.0.0.1"), ["198.51.100.7"]), ip("127.0.0.1"));
        trusted.resolve().await;
        assert_eq!(
            trusted.client(ip("127.0.0.1"), ["198.51.100.7"]),
            ip("198.51.100.7")
        );
        assert_eq!(trusted.client(ip("10.0.0.2"), ["198.51.100.7"]), ip("10.0.0.2"));
    }

    #[test]
    fn a_peer_that_is_no_trusted_proxy_is_the_client_whatever_it_forwards() {
        let trusted = proxies(&["10.0.0.0/8"]);
        assert_eq!(
            trusted.client(ip("203.0.113.9"), ["198.51.100.1"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            TrustedProxies::default().client(ip("10.0.0.2"), ["1.2.3.4"]),
            ip("10.0.0.2")
        );
        // A mapped IPv4 peer is that IPv4 address.
        assert_eq!(trusted.client(ip("::ffff:203.0.113.9"), []), ip("203.0.113.9"));
    }

    #[test]
    fn the_walk_goes_right_to_left_past_trusted_proxies_only() {
        let trusted = proxies(&["10.0.0.0/8", "172.16.0.0/12"]);
        let peer = ip("10.0.0.2");
        // The client's own hops (left of the first untrusted one) are never read.
        let forged = ["1.1.1.1, 2.2.2.2, 198.51.100.7"];
        assert_eq!(trusted.client(peer, forged), ip("198.51.100.7"));
        // A TLS proxy in front, itself trusted, then nginx: the hop before them both.
        assert_eq!(
            trusted.client(peer, ["1.1.1.1, 198.51.100.7, 172.17.0.1"]),
            ip("198.51.100.7")
        );
        // Header lines are read as one list, in order.
        assert_eq!(
            trusted.client(peer, ["1.1.1.1", "198.51.100.7, 10.1.1.1"]),
            ip("198.51.100.7")
        );
        // Ports and brackets, as some proxies write them.
        assert_eq!(trusted.client(peer, ["198.51.100.7:4711"]), ip("198.51.100.7"));
        assert_eq!(trusted.client(peer, ["[2001:db8::5]:443"]), ip("2001:db8::5"));
        // No header: the proxy itself. Every hop trusted: the leftmost.
        assert_eq!(trusted.client(peer, []), peer);
        assert_eq!(trusted.client(peer, ["10.3.3.3, 172.16.0.9"]), ip("10.3.3.3"));
        // Garbage where an address should be stops at the proxy that passed it on.
        assert_eq!(
            trusted.client(peer, ["198.51.100.7, unknown, 10.4.4.4"]),
            ip("10.4.4.4")
        );
        assert_eq!(trusted.client(peer, [""]), peer);
    }
}
