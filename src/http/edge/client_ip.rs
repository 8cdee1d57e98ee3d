//! The client's address, for throttles, SMS limits, payments and logs. `X-Forwarded-For` and
//! `X-Forwarded-Proto` are anyone's word unless one of our own proxies wrote them, so they are
//! believed only from the proxies named in `[server] trusted_proxies` (IPs or CIDRs; none by
//! default): otherwise the peer address is the client. Behind trusted proxies the header is
//! walked from the right, each trusted hop skipped, and the first untrusted address is the
//! client: everything left of it was written by the client and proves nothing. A hop that is
//! not an address where a trusted proxy's should be leaves the client unknown: it is not the
//! proxy, whose own (often local) address would otherwise speak for whoever sent the request.

use actix_web::http::header::HeaderName;
use actix_web::{web, HttpRequest};
use std::net::{IpAddr, SocketAddr};

/// One trusted network: an address and how many leading bits must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Net {
    addr: IpAddr,
    prefix: u8,
}

impl Net {
    fn parse(text: &str) -> Option<Net> {
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let addr = addr.trim().parse::<IpAddr>().ok()?.to_canonical();
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.trim().parse::<u8>().ok().filter(|p| *p <= max)?,
            None => max,
        };
        Some(Net { addr, prefix })
    }

    fn contains(&self, ip: IpAddr) -> bool {
        let bits = |ip: IpAddr| -> (u128, u32) {
            match ip {
                IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
                IpAddr::V6(v6) => (u128::from(v6), 128),
            }
        };
        let (want, width) = bits(self.addr);
        let (have, have_width) = bits(ip.to_canonical());
        if width != have_width {
            return false;
        }
        let shift = width - u32::from(self.prefix);
        // A /0 shifts the whole width out: every address of the family matches.
        want.checked_shr(shift).unwrap_or(0) == have.checked_shr(shift).unwrap_or(0)
    }
}

/// The proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Net>);

impl TrustedProxies {
    /// Parses the configured list; names the first entry that is neither an IP nor a CIDR.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<TrustedProxies, String> {
        entries
            .iter()
            .map(|e| Net::parse(e.as_ref()).ok_or_else(|| e.as_ref().to_string()))
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }

    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(ip))
    }
}

/// One hop of X-Forwarded-For: an address, possibly with a port ("1.2.3.4:5678", "[::1]:80")
/// or in brackets ("[::1]").
fn hop(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| {
            text.strip_prefix('[')?
                .strip_suffix(']')?
                .parse::<std::net::Ipv6Addr>()
                .ok()
                .map(IpAddr::V6)
        })
        .map(|ip| ip.to_canonical())
}

/// The client address of a request from `peer` carrying the X-Forwarded-For values
/// `forwarded` (every header line, in order); None when it is unknown. Pure, so the rules can
/// be read in one table.
pub fn resolve(peer: IpAddr, forwarded: &[&str], trusted: &TrustedProxies) -> Option<IpAddr> {
    let mut client = peer.to_canonical();
    if !trusted.trusts(client) {
        return Some(client);
    }
    let hops = forwarded
        .iter()
        .flat_map(|v| v.split(','))
        // Empty list elements are no elements (RFC 9110 §5.6.1).
        .filter(|hop| !hop.trim().is_empty())
        .rev();
    for text in hops {
        // Our proxy wrote something that is not an address ("unknown", an obfuscated name), or
        // the sender wrote it and the proxy passed it on: nobody vouches for any address.
        client = hop(text)?;
        if !trusted.trusts(client) {
            return Some(client);
        }
    }
    Some(client)
}

fn trusted_of(req: &HttpRequest) -> Option<&TrustedProxies> {
    req.app_data::<web::Data<TrustedProxies>>()
        .map(|d| d.get_ref())
}

fn from_trusted_peer(req: &HttpRequest) -> Option<&TrustedProxies> {
    let trusted = trusted_of(req)?;
    let peer = req.peer_addr()?.ip();
    trusted.trusts(peer).then_some(trusted)
}

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
const X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");

/// The client's address; None when it is not known: a hop our proxies vouch for is not an
/// address, or the connection has no peer address (tests). Whoever decides by address
/// (`/metrics`) refuses None; the limits count it as the one address "unknown".
pub fn client_addr(req: &HttpRequest) -> Option<IpAddr> {
    let peer = req.peer_addr()?.ip();
    // Most requests carry no X-Forwarded-For: then the peer is the client, whoever it is.
    if !req.headers().contains_key(X_FORWARDED_FOR) {
        return Some(peer.to_canonical());
    }
    let forwarded: Vec<&str> = req
        .headers()
        .get_all(X_FORWARDED_FOR)
        .filter_map(|v| v.to_str().ok())
        .collect();
    let empty = TrustedProxies::default();
    resolve(peer, &forwarded, trusted_of(req).unwrap_or(&empty))
}

/// The client's address as text, the form the limits store ("unknown" when not known).
pub fn client_ip(req: &HttpRequest) -> String {
    client_addr(req).map_or_else(|| "unknown".to_string(), |ip| ip.to_string())
}

/// Whether the client reached us over TLS. This server speaks plain HTTP only, so TLS is the
/// proxy's: a trusted proxy's `X-Forwarded-Proto: https` (its last value, the one it wrote).
pub fn is_https(req: &HttpRequest) -> bool {
    // The header first: it is cheaper to look for than the peer is to check.
    req.headers().contains_key(X_FORWARDED_PROTO)
        && from_trusted_peer(req).is_some()
        && req
            .headers()
            .get_all(X_FORWARDED_PROTO)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn ip(text: &str) -> IpAddr {
        text.parse()
            .unwrap_or_else(|_| panic!("test address {text}"))
    }

    #[test]
    fn networks_parse_and_match() {
        let cases: &[(&str, &str, Option<bool>)] = &[
            ("10.0.0.0/8", "10.200.1.2", Some(true)),
            ("10.0.0.0/8", "11.0.0.1", Some(false)),
            ("192.168.1.7", "192.168.1.7", Some(true)),
            ("192.168.1.7", "192.168.1.8", Some(false)),
            ("0.0.0.0/0", "8.8.8.8", Some(true)),
            ("0.0.0.0/0", "::1", Some(false)),
            ("fd00::/8", "fd12:3456::1", Some(true)),
            ("fd00::/8", "fe80::1", Some(false)),
            ("::1", "::1", Some(true)),
            // An IPv4 peer seen through a dual-stack socket is still that IPv4 address.
            ("127.0.0.1", "::ffff:127.0.0.1", Some(true)),
            ("::/0", "2001:db8::1", Some(true)),
            ("10.0.0.0/33", "10.0.0.1", None),
            ("::1/129", "::1", None),
            ("proxy.local", "10.0.0.1", None),
            ("10.0.0.0/x", "10.0.0.1", None),
            ("", "10.0.0.1", None),
        ];
        for (net, addr, want) in cases {
            let got = TrustedProxies::parse(&[*net])
                .ok()
                .map(|t| t.trusts(ip(addr)));
            assert_eq!(got, *want, "{net} {addr}");
        }
        assert_eq!(
            TrustedProxies::parse(&["10.0.0.1", "nonsense"]),
            Err("nonsense".to_string())
        );
    }

    #[test]
    fn the_client_is_the_first_untrusted_hop_from_the_right() {
        let lb =
            TrustedProxies::parse(&["10.0.0.0/8", "fd00::/8", "127.0.0.1"]).unwrap_or_default();
        let none = TrustedProxies::default();
        let cases: &[(&TrustedProxies, &str, &[&str], &str)] = &[
            // No proxies configured: the header is never believed.
            (&none, "10.0.0.5", &["1.2.3.4"], "10.0.0.5"),
            (&none, "127.0.0.1", &["9.9.9.9"], "127.0.0.1"),
            // Spoofed by a client talking to us directly.
            (&lb, "8.8.8.8", &["1.2.3.4"], "8.8.8.8"),
            (&lb, "8.8.8.8", &["10.0.0.9"], "8.8.8.8"),
            // Behind our proxy: the address it appended.
            (&lb, "10.0.0.5", &["5.6.7.8"], "5.6.7.8"),
            // The client's own claim on the left is skipped.
            (&lb, "10.0.0.5", &["1.2.3.4, 5.6.7.8"], "5.6.7.8"),
            // A chain of our proxies: skip each trusted hop.
            (
                &lb,
                "10.0.0.5",
                &["1.2.3.4, 5.6.7.8, 10.1.1.1, 10.2.2.2"],
                "5.6.7.8",
            ),
            // A client claiming to be our proxy is still caught at its real address.
            (&lb, "10.0.0.5", &["10.9.9.9, 5.6.7.8"], "5.6.7.8"),
            // Several header lines are one list, in order.
            (
                &lb,
                "10.0.0.5",
                &["1.2.3.4", "5.6.7.8, 10.1.1.1"],
                "5.6.7.8",
            ),
            // No header, or an empty one: the peer.
            (&lb, "10.0.0.5", &[], "10.0.0.5"),
            (&lb, "10.0.0.5", &[""], "10.0.0.5"),
            // Garbage written where our proxy's hop should be: the client is unknown.
            (&lb, "10.0.0.5", &["garbage"], "unknown"),
            (&lb, "10.0.0.5", &["5.6.7.8, garbage"], "unknown"),
            (&lb, "10.0.0.5", &["garbage, 10.1.1.1"], "unknown"),
            // Garbage left of the real client is the client's own business.
            (&lb, "10.0.0.5", &["garbage, 5.6.7.8"], "5.6.7.8"),
            (&lb, "10.0.0.5", &["1.2.3.4;drop table, 5.6.7.8"], "5.6.7.8"),
            // Every hop trusted: an internal client, the leftmost.
            (&lb, "10.0.0.5", &["10.3.3.3, 10.1.1.1"], "10.3.3.3"),
            // Ports, and IPv6 in every form.
            (&lb, "10.0.0.5", &["5.6.7.8:4711"], "5.6.7.8"),
            (&lb, "10.0.0.5", &["2001:db8::1"], "2001:db8::1"),
            (&lb, "10.0.0.5", &["[2001:db8::1]:443"], "2001:db8::1"),
            (&lb, "fd00::2", &["2001:db8::7, fd00::1"], "2001:db8::7"),
            (&lb, "2001:db8::9", &["1.2.3.4"], "2001:db8::9"),
            (&lb, "::ffff:10.0.0.5", &["::ffff:5.6.7.8"], "5.6.7.8"),
            (&lb, "127.0.0.1", &["  5.6.7.8  "], "5.6.7.8"),
        ];
        for (trusted, peer, forwarded, want) in cases {
            let want = Some(*want).filter(|w| *w != "unknown").map(ip);
            assert_eq!(
                resolve(ip(peer), forwarded, trusted),
                want,
                "{peer} {forwarded:?}"
            );
        }
    }

    /// Issue 34 (14): what a trusted proxy's hop says when it is not an address. "unknown"
    /// (what some proxies write when they cannot tell), an obfuscated name, garbage: the client
    /// is unknown, never the proxy, whose own address would pass for a local caller. Empty list
    /// elements are nothing at all (RFC 9110 §5.6.1: a recipient ignores them).
    #[test]
    fn a_hop_that_is_not_an_address_leaves_the_client_unknown() {
        let trusted = web::Data::new(
            TrustedProxies::parse(&["127.0.0.1", "10.0.0.0/8", "fd00::/8"]).unwrap_or_default(),
        );
        let client = |peer: &str, lines: &[&str]| {
            let mut req = TestRequest::default()
                .peer_addr(peer.parse().unwrap_or_else(|_| panic!("peer {peer}")))
                .app_data(trusted.clone());
            for line in lines {
                req = req.append_header(("x-forwarded-for", *line));
            }
            client_ip(&req.to_http_request())
        };
        let cases: &[(&str, &[&str], &str)] = &[
            // Not an address where our proxy's hop should be.
            ("127.0.0.1:80", &["unknown"], "unknown"),
            ("127.0.0.1:80", &["1.2.3.4, garbage"], "unknown"),
            ("127.0.0.1:80", &["1.2.3.4, unknown"], "unknown"),
            ("127.0.0.1:80", &["_hidden"], "unknown"),
            ("127.0.0.1:80", &["\"1.2.3.4\""], "unknown"),
            ("127.0.0.1:80", &["1.2.3"], "unknown"),
            ("127.0.0.1:80", &["1.2.3.4:99999"], "unknown"),
            ("127.0.0.1:80", &["fe80::1%eth0"], "unknown"),
            ("127.0.0.1:80", &["5.6.7.8", "garbage"], "unknown"),
            // Our inner proxy (10.1.1.1) says it heard from "unknown": unknown too.
            ("127.0.0.1:80", &["1.2.3.4, unknown, 10.1.1.1"], "unknown"),
            // Garbage left of the first untrusted hop is the client's own business.
            ("127.0.0.1:80", &["garbage, 5.6.7.8"], "5.6.7.8"),
            ("127.0.0.1:80", &["unknown, 5.6.7.8, 10.1.1.1"], "5.6.7.8"),
            // Empty hops are no hops.
            ("127.0.0.1:80", &[""], "127.0.0.1"),
            ("127.0.0.1:80", &[" , "], "127.0.0.1"),
            ("127.0.0.1:80", &["5.6.7.8, "], "5.6.7.8"),
            ("127.0.0.1:80", &["5.6.7.8,,10.1.1.1"], "5.6.7.8"),
            ("127.0.0.1:80", &["5.6.7.8", ""], "5.6.7.8"),
            // Addresses in every form a proxy writes them.
            ("127.0.0.1:80", &["5.6.7.8:4711"], "5.6.7.8"),
            ("127.0.0.1:80", &["2001:db8::1"], "2001:db8::1"),
            ("127.0.0.1:80", &["[2001:db8::1]:443"], "2001:db8::1"),
            ("127.0.0.1:80", &["[2001:db8::1]"], "2001:db8::1"),
            ("127.0.0.1:80", &["::ffff:5.6.7.8"], "5.6.7.8"),
            ("[fd00::2]:80", &["2001:db8::7, fd00::1"], "2001:db8::7"),
            // Every hop ours: the leftmost is an internal client.
            ("127.0.0.1:80", &["10.3.3.3, 10.1.1.1"], "10.3.3.3"),
            // From a peer we do not trust, the header is not read at all.
            ("8.8.8.8:80", &["unknown"], "8.8.8.8"),
            ("8.8.8.8:80", &["127.0.0.1"], "8.8.8.8"),
        ];
        for (peer, lines, want) in cases {
            assert_eq!(client(peer, lines), *want, "{peer} {lines:?}");
        }
    }

    #[test]
    fn requests_read_the_configured_proxies() {
        let trusted = web::Data::new(TrustedProxies::parse(&["127.0.0.1"]).unwrap_or_default());
        let from = |peer: &str, xff: Option<&str>, proto: Option<&str>, with: bool| {
            let mut req = TestRequest::default().peer_addr(
                peer.parse()
                    .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0))),
            );
            if with {
                req = req.app_data(trusted.clone());
            }
            if let Some(xff) = xff {
                req = req.insert_header(("x-forwarded-for", xff));
            }
            if let Some(proto) = proto {
                req = req.insert_header(("x-forwarded-proto", proto));
            }
            let req = req.to_http_request();
            (client_ip(&req), is_https(&req))
        };
        let t = |a: &str, b: bool| (a.to_string(), b);
        assert_eq!(
            from("127.0.0.1:80", Some("9.9.9.9"), Some("https"), true),
            t("9.9.9.9", true)
        );
        assert_eq!(
            from("127.0.0.1:80", Some("9.9.9.9"), Some("http"), true),
            t("9.9.9.9", false)
        );
        assert_eq!(
            from("127.0.0.1:80", None, Some("http, https"), true),
            t("127.0.0.1", true)
        );
        assert_eq!(
            from("8.8.8.8:80", Some("9.9.9.9"), Some("https"), true),
            t("8.8.8.8", false)
        );
        assert_eq!(
            from("127.0.0.1:80", Some("9.9.9.9"), Some("https"), false),
            t("127.0.0.1", false)
        );
    }
}
