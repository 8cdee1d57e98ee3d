//! Where the browser may be sent back to after paying (`POST /payments` `returnUrl`, the
//! provider's return): only a path of our own site. Anything a browser could read as another
//! origin is refused, whatever spelling it hides behind: `//host` and `/\host` (browsers treat
//! a backslash as a slash), a scheme, control characters and spaces (stripped or kept by
//! parsers in different ways), and percent-escapes that decode to any of these or to another
//! escape (double encoding).

use std::fmt;

/// The longest return path accepted, in bytes.
pub const MAX_LEN: usize = 512;

/// A same-origin absolute path (with its query and fragment), safe to send a browser to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnPath(String);

/// Why a return path was refused (for the log; the client gets the default page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReturnPathError {
    #[error("empty")]
    Empty,
    #[error("longer than {MAX_LEN} bytes")]
    TooLong,
    #[error("not a path of this site (must start with a single '/')")]
    NotAPath,
    #[error("holds a character other than printable ASCII (a space, a control or non-ASCII)")]
    BadCharacter,
    #[error("holds a backslash")]
    Backslash,
    #[error("holds '//'")]
    DoubleSlash,
    #[error("holds a percent-escape that is malformed or hides '/', '\\', '%' or a control")]
    HiddenByEscape,
}

impl ReturnPath {
    /// Accepts `text` as it is (nothing is trimmed or decoded) when it is a path of this site.
    pub fn parse(text: &str) -> Result<ReturnPath, ReturnPathError> {
        if text.is_empty() {
            return Err(ReturnPathError::Empty);
        }
        if text.len() > MAX_LEN {
            return Err(ReturnPathError::TooLong);
        }
        let bytes = text.as_bytes();
        // Printable ASCII only: no space, no control, and no look-alike such as '／' or '＼'
        // (non-ASCII must come percent-encoded).
        if !bytes.iter().all(|b| (0x21..=0x7e).contains(b)) {
            return Err(ReturnPathError::BadCharacter);
        }
        if bytes.contains(&b'\\') {
            return Err(ReturnPathError::Backslash);
        }
        if bytes[0] != b'/' {
            return Err(ReturnPathError::NotAPath);
        }
        let path_end = text.find(['?', '#']).unwrap_or(text.len());
        if text[..path_end].contains("//") {
            return Err(ReturnPathError::DoubleSlash);
        }
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let decoded = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or(ReturnPathError::HiddenByEscape)?;
                if matches!(decoded, b'/' | b'\\' | b'%') || decoded < 0x20 || decoded == 0x7f {
                    return Err(ReturnPathError::HiddenByEscape);
                }
                i += 3;
            } else {
                i += 1;
            }
        }
        Ok(ReturnPath(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ReturnPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::ReturnPathError as E;
    use super::*;

    #[test]
    fn only_paths_of_this_site_pass() {
        let long = format!("/{}", "a".repeat(MAX_LEN));
        let cases: Vec<(&str, Result<(), E>)> = vec![
            // Benign.
            ("/order/status", Ok(())),
            ("/order/status?orderNo=O123&paymentId=P1", Ok(())),
            ("/order/status?orderNo=O1#top", Ok(())),
            ("/", Ok(())),
            ("/my/orders?tab=all&page=2", Ok(())),
            ("/search?q=%E6%AF%94%E8%90%A8", Ok(())),
            ("/a%20b", Ok(())),
            ("/order/status?next=https://x.test", Ok(())),
            ("/order/status?u=a//b", Ok(())),
            ("/@evil.test", Ok(())),
            ("/..", Ok(())),
            // Other origins and schemes.
            ("", Err(E::Empty)),
            ("//evil.test", Err(E::DoubleSlash)),
            ("//evil.test/order/status", Err(E::DoubleSlash)),
            ("///evil.test", Err(E::DoubleSlash)),
            ("/order//status", Err(E::DoubleSlash)),
            ("https://evil.test/order/status", Err(E::NotAPath)),
            ("http://localhost:8080/order/status", Err(E::NotAPath)),
            ("javascript:alert(1)", Err(E::NotAPath)),
            ("data:text/html,hi", Err(E::NotAPath)),
            ("evil.test/order", Err(E::NotAPath)),
            ("order/status", Err(E::NotAPath)),
            ("?orderNo=1", Err(E::NotAPath)),
            ("#top", Err(E::NotAPath)),
            // Backslashes: browsers read them as slashes.
            ("/\\evil.test", Err(E::Backslash)),
            ("\\\\evil.test", Err(E::Backslash)),
            ("/order\\status", Err(E::Backslash)),
            // Spaces and controls: stripped by some parsers, so "/\t/evil" may become "//evil".
            (" /order/status", Err(E::BadCharacter)),
            ("/order/status ", Err(E::BadCharacter)),
            ("/\t/evil.test", Err(E::BadCharacter)),
            ("/\n/evil.test", Err(E::BadCharacter)),
            ("/\r\nSet-Cookie:x=1", Err(E::BadCharacter)),
            ("/\0", Err(E::BadCharacter)),
            ("/\u{7f}", Err(E::BadCharacter)),
            ("/\u{85}x", Err(E::BadCharacter)),
            // Look-alikes: fullwidth solidus and reverse solidus, division slash.
            ("/／evil.test", Err(E::BadCharacter)),
            ("/＼evil.test", Err(E::BadCharacter)),
            ("/\u{2215}evil.test", Err(E::BadCharacter)),
            ("/\u{202e}sutats", Err(E::BadCharacter)),
            // Escapes that hide the same tricks.
            ("/%2fevil.test", Err(E::HiddenByEscape)),
            ("/%2Fevil.test", Err(E::HiddenByEscape)),
            ("/%5cevil.test", Err(E::HiddenByEscape)),
            ("/%5Cevil.test", Err(E::HiddenByEscape)),
            ("/%00", Err(E::HiddenByEscape)),
            ("/%09/evil.test", Err(E::HiddenByEscape)),
            ("/%0d%0aLocation:x", Err(E::HiddenByEscape)),
            ("/%7F", Err(E::HiddenByEscape)),
            ("/%252f%252fevil.test", Err(E::HiddenByEscape)),
            ("/%25", Err(E::HiddenByEscape)),
            ("/%zz", Err(E::HiddenByEscape)),
            ("/%2", Err(E::HiddenByEscape)),
            ("/%", Err(E::HiddenByEscape)),
            ("/%+2f", Err(E::HiddenByEscape)),
            (long.as_str(), Err(E::TooLong)),
        ];
        assert!(cases.len() >= 30);
        for (input, want) in cases {
            let got = ReturnPath::parse(input);
            assert_eq!(
                got.as_ref().map(|_| ()),
                want.as_ref().map(|_| ()),
                "{input:?}"
            );
            if let Ok(path) = got {
                assert_eq!(path.as_str(), input, "kept as given");
            }
        }
    }

    /// Whatever is accepted, a browser resolves against our origin: it starts with one '/',
    /// and no byte of it, nor of its decoding, is a slash-like or control character that could
    /// make the second character start an authority.
    #[test]
    fn nothing_accepted_starts_an_authority() {
        let alphabet = [
            "/", "\\", "%2f", "%5c", "%25", "a", ".", ":", "@", "?", "#", "\t", " ", "%0a",
        ];
        let mut accepted = 0;
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    let input = format!("{a}{b}{c}");
                    if let Ok(path) = ReturnPath::parse(&input) {
                        accepted += 1;
                        let p = path.as_str();
                        assert!(p.starts_with('/') && !p.starts_with("//"), "{p:?}");
                        let lower = p.to_ascii_lowercase();
                        for bad in ["\\", "%2f", "%5c", "%25", "%0a", "\t", " "] {
                            assert!(!lower.contains(bad), "{p:?}");
                        }
                    }
                }
            }
        }
        assert!(accepted > 0);
    }
}
