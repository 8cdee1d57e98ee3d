//! Security headers on every response (put there by [`crate::http::edge`]): the API, the app and its
//! assets, the sandbox cashier and the Swagger UI. The rules and the reasons for each choice are
//! in docs/security.md.

use crate::http::edge::client_ip::is_https;
use actix_http::header::HeaderMap;
use actix_web::http::header::{self, HeaderValue};
use actix_web::HttpRequest;
use std::cell::RefCell;

/// Where the pay forms of the web flows post to: the sandbox cashier is our own origin, the
/// Alipay and UnionPay gateways are theirs. A form the app submits for the customer must be
/// allowed here, or the browser refuses to leave for the provider.
const FORM_TARGETS: &str =
    "'self' https://openapi.alipay.com https://mapi.alipay.com https://gateway.95516.com";

/// The one style element the Swagger UI bundle (5.17.14, vendored by utoipa-swagger-ui) writes
/// into its page, allowed by its hash on /api-docs/ alone. A new bundle with another style
/// shows as a violation in the browser test (frontend/e2e/security.test.mjs).
const SWAGGER_STYLE: &str = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/// A year, the usual HSTS lifetime; no includeSubDomains, since other hosts of the domain are
/// not ours to promise TLS for.
const HSTS: &str = "max-age=31536000";

/// The policy. Scripts only from our origin: no inline script, no eval. Style elements only
/// from our origin too (an injected `<style>` could read attribute values out through
/// selectors), but style *attributes* are allowed (`style-src-attr`): the providers' pay forms
/// carry `style="display:none"`, and an attribute styles only its own element and can load
/// nothing beyond `img-src`.
pub fn content_security_policy(host: Option<&str>, path: &str) -> String {
    // CSP 3 lets 'self' match ws(s) on the same host, but older WebViews (the chat and pay
    // apps' browsers) do not: name the socket origin too.
    let sockets = host
        .filter(|h| is_authority(h))
        .map(|h| format!(" ws://{h} wss://{h}"))
        .unwrap_or_default();
    let swagger = if path.starts_with("/api-docs/") {
        format!(" {SWAGGER_STYLE}")
    } else {
        String::new()
    };
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self'{swagger}; \
         style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
         connect-src 'self'{sockets}; object-src 'none'; base-uri 'self'; \
         frame-ancestors 'none'; form-action {FORM_TARGETS}"
    )
}

/// A Host header fit to be written into the policy: a name or address and a port, nothing
/// that could end a directive or add a source.
fn is_authority(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// The policy's header value for this host and page. Building it is a few hundred bytes of
/// formatting, and nearly every request names the same host: each worker thread keeps the last
/// few it built (a handful, since the Host header is the client's to choose).
fn policy_header(host: Option<&str>, swagger: bool) -> Option<HeaderValue> {
    const KEPT: usize = 8;
    thread_local! {
        static BUILT: RefCell<Vec<(Option<String>, bool, HeaderValue)>> = const { RefCell::new(Vec::new()) };
    }
    BUILT.with_borrow_mut(|built| {
        if let Some((_, _, value)) = built
            .iter()
            .find(|(h, s, _)| h.as_deref() == host && *s == swagger)
        {
            return Some(value.clone());
        }
        let path = if swagger { "/api-docs/" } else { "/" };
        let value = HeaderValue::from_str(&content_security_policy(host, path)).ok()?;
        if built.len() >= KEPT {
            built.remove(0);
        }
        built.push((host.map(str::to_owned), swagger, value.clone()));
        Some(value)
    })
}

/// What the headers depend on, read from the request before it is served.
pub struct Facts {
    https: bool,
    swagger: bool,
    /// A clone of the request's header shares its bytes.
    host: Option<HeaderValue>,
}

impl Facts {
    /// For an answer to a request that could not be read (`head_limits::parser_refusal`): no
    /// host to name the socket origin by, no proxy to say it came over TLS.
    pub fn unknown() -> Facts {
        Facts {
            https: false,
            swagger: false,
            host: None,
        }
    }

    pub fn of(req: &HttpRequest) -> Facts {
        Facts {
            https: is_https(req),
            swagger: req.path().starts_with("/api-docs/"),
            host: req.headers().get(header::HOST).cloned(),
        }
    }
}

/// Puts the headers on an answer.
pub fn apply(facts: &Facts, headers: &mut HeaderMap) {
    let host = facts.host.as_ref().and_then(|h| h.to_str().ok());
    if let Some(value) = policy_header(host, facts.swagger) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    if facts.https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    } else {
        // Over plain HTTP the header means nothing to a browser, and a proxy must not pass on
        // one from elsewhere.
        headers.remove(header::STRICT_TRANSPORT_SECURITY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_socket_origin_only_for_a_clean_host() {
        let with = content_security_policy(Some("pizza.example.com:8443"), "/");
        assert!(with.contains(
            "connect-src 'self' ws://pizza.example.com:8443 wss://pizza.example.com:8443;"
        ));
        for dirty in ["evil.com; script-src *", "a b", "", "x'y", "h\"", "a/b"] {
            let csp = content_security_policy(Some(dirty), "/");
            assert!(csp.contains("connect-src 'self';"), "{dirty}: {csp}");
        }
        let csp = content_security_policy(None, "/menu");
        for want in [
            "default-src 'self'",
            "script-src 'self';",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'self'",
            "img-src 'self' data:",
        ] {
            assert!(csp.contains(want), "{want}");
        }
        assert!(!csp.contains("unsafe-eval"));
        assert_eq!(csp.matches("'unsafe-inline'").count(), 1);
        assert!(csp.contains("style-src-attr 'unsafe-inline'"));
        assert!(!csp.contains("sha256-"));
        let docs = content_security_policy(None, "/api-docs/");
        assert!(docs.contains(&format!("style-src-elem 'self' {SWAGGER_STYLE};")));
    }

    /// The kept values are the policies themselves, whichever host and page asked first, and
    /// many hosts do not make the cache forget the policy of any of them.
    #[test]
    fn kept_policies_are_the_policy_of_their_host_and_page() {
        let hosts: Vec<String> = (0..20).map(|i| format!("h{i}.example.com")).collect();
        for round in 0..3 {
            for host in hosts
                .iter()
                .map(String::as_str)
                .map(Some)
                .chain([None, Some("a b")])
            {
                for (swagger, path) in [(false, "/"), (true, "/api-docs/")] {
                    let kept = policy_header(host, swagger);
                    let want = content_security_policy(host, path);
                    assert_eq!(
                        kept.as_ref().and_then(|v| v.to_str().ok()),
                        Some(want.as_str()),
                        "round {round}, {host:?}, {path}"
                    );
                }
            }
        }
    }
}
