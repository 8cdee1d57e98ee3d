//! The client's address for rate limits. X-Forwarded-For is the client's own word unless our
//! proxy wrote it, so it is believed only when the peer is on a private or loopback network
//! (the load balancer), and then only its last hop, the one that proxy appended.

use actix_web::HttpRequest;
use std::net::IpAddr;

pub fn client_ip(req: &HttpRequest) -> String {
    let peer = req.peer_addr().map(|a| a.ip());
    let behind_our_proxy = peer.is_some_and(is_internal);
    let forwarded = behind_our_proxy
        .then(|| req.headers().get("x-forwarded-for")?.to_str().ok())
        .flatten()
        .and_then(|v| v.rsplit(',').next())
        .and_then(|hop| hop.trim().parse::<IpAddr>().ok());
    forwarded
        .or(peer)
        .map_or_else(|| "unknown".to_string(), |ip| ip.to_string())
}

fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => v6.is_loopback() || (v6.segments()[0] & 0xfe00) == 0xfc00,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn forwarded_only_from_our_network_and_only_the_last_hop() {
        let cases = [
            ("10.0.0.5:80", Some("1.2.3.4, 5.6.7.8"), "5.6.7.8"),
            ("127.0.0.1:80", Some("9.9.9.9"), "9.9.9.9"),
            ("127.0.0.1:80", None, "127.0.0.1"),
            ("127.0.0.1:80", Some("garbage"), "127.0.0.1"),
            ("8.8.8.8:80", Some("1.2.3.4"), "8.8.8.8"),
        ];
        for (peer, xff, want) in cases {
            let mut req = TestRequest::default().peer_addr(
                peer.parse()
                    .unwrap_or_else(|_| std::net::SocketAddr::from(([0, 0, 0, 0], 0))),
            );
            if let Some(xff) = xff {
                req = req.insert_header(("x-forwarded-for", xff));
            }
            assert_eq!(client_ip(&req.to_http_request()), want, "{peer} {xff:?}");
        }
    }
}
