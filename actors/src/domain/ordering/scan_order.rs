//! Table QR links for scan-to-order (spec ordering §3 "Scan-order info", §4, §5): a link names the
//! store and the desk and carries a sign, so a customer cannot put an order on another table by
//! editing the URL. The spec's sign is a plain hash of the fields with a fixed suffix, which
//! anyone who learns the suffix can forge; ours is an HMAC-SHA256 under a server secret.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// How long a scanned table stays on the cart (spec §4, §9: 3600 s).
pub const SCAN_INFO_LIFETIME_MS: i64 = 3_600_000;
pub const DESK_NO_MAX_CHARS: usize = 16;

/// Names what is signed, so a MAC made for another purpose under the same secret never passes
/// as a table sign.
const DOMAIN: &[u8] = b"pizza-order/scan-order/v1";
const TAG_BYTES: usize = 32;

/// The MAC over `DOMAIN`, then each field as its UTF-8 byte length (u64 big-endian) and its
/// bytes. The lengths make the encoding unambiguous whatever the fields contain: ("ab", "c")
/// and ("a", "bc") sign differently.
fn mac(secret: &[u8], store_name: &str, store_code: &str, desk_no: &str) -> Option<HmacSha256> {
    // HMAC takes a key of any length, so this never fails; no panic path either way.
    let mut mac = HmacSha256::new_from_slice(secret).ok()?;
    mac.update(DOMAIN);
    for field in [store_name, store_code, desk_no] {
        mac.update(&(field.len() as u64).to_be_bytes());
        mac.update(field.as_bytes());
    }
    Some(mac)
}

/// The sign of a table link: lower-case hex of the 32-byte HMAC-SHA256.
pub fn sign(secret: &[u8], store_name: &str, store_code: &str, desk_no: &str) -> String {
    mac(secret, store_name, store_code, desk_no)
        .map(|m| crate::hex::encode(&m.finalize().into_bytes()))
        .unwrap_or_default()
}

/// Whether `sign` is the sign of these fields, compared in constant time. Anything that is not
/// 64 hex digits (either case) is false.
pub fn verify(
    secret: &[u8],
    store_name: &str,
    store_code: &str,
    desk_no: &str,
    sign: &str,
) -> bool {
    let Some(tag) = from_hex(sign) else {
        return false;
    };
    tag.len() == TAG_BYTES
        && mac(secret, store_name, store_code, desk_no)
            .is_some_and(|m| m.verify_slice(&tag).is_ok())
}

/// A desk number as printed on the table: 1 to 16 ASCII letters, digits or '-'.
pub fn valid_desk_no(s: &str) -> bool {
    (1..=DESK_NO_MAX_CHARS).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The URL printed in the table's QR code: the menu page with the four fields as query
/// parameters, each percent-encoded (the store name is Chinese). A trailing '/' on the base is
/// dropped.
pub fn table_link(
    base_url: &str,
    store_name: &str,
    store_code: &str,
    desk_no: &str,
    sign: &str,
) -> String {
    format!(
        "{}/menu?storeName={}&storeCode={}&deskNo={}&sign={}",
        base_url.trim_end_matches('/'),
        encode_component(store_name),
        encode_component(store_code),
        encode_component(desk_no),
        encode_component(sign),
    )
}

/// Percent-encodes a query value: RFC 3986 unreserved characters (letters, digits, `-._~`) as
/// they are, every other UTF-8 byte as `%XX` upper-case; a space is `%20`, never `+`. What
/// `decodeURIComponent` and every URL parser read back unchanged.
fn encode_component(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0x0f)]));
        }
    }
    out
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    let digit = |b: u8| {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|pair| Some((digit(pair[0])? << 4) | digit(pair[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const SECRET: &[u8] = b"test-secret";
    const NAME: &str = "必胜客人民广场店";

    #[test]
    fn known_answer() {
        // python3: hmac.new(b"test-secret", b"pizza-order/scan-order/v1" + b"".join(
        //   struct.pack(">Q", len(f)) + f for f in (name, b"SH001", b"A12")), sha256).hexdigest()
        assert_eq!(
            sign(SECRET, NAME, "SH001", "A12"),
            "2c3d7a82f5f3d637f2a3a0cc351ffd728d7a0661a96303e8f2f89b21ccfccaf1"
        );
        assert_eq!(
            sign(b"", "", "", ""),
            "0af47c3f9402c503e63bed4a7cf02747c347b49f71ce85c8620c16a057010eb2"
        );
    }

    #[test]
    fn round_trip() {
        let cases = [
            (NAME, "SH001", "A12"),
            ("Pizza Hut Bund", "SH002", "12"),
            ("", "", ""),
            ("a\nb", "c", "d"),
        ];
        for (name, code, desk) in cases {
            let s = sign(SECRET, name, code, desk);
            assert_eq!(s.len(), 64);
            assert!(s
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
            assert!(verify(SECRET, name, code, desk, &s), "{name} {code} {desk}");
            assert!(verify(SECRET, name, code, desk, &s.to_uppercase()));
        }
    }

    #[test]
    fn tampering_fails() {
        let s = sign(SECRET, NAME, "SH001", "A12");
        let cases: [(&[u8], &str, &str, &str); 8] = [
            (SECRET, "必胜客外滩店", "SH001", "A12"),
            (SECRET, NAME, "SH002", "A12"),
            (SECRET, NAME, "SH001", "A13"),
            (SECRET, NAME, "SH001", "a12"),
            (SECRET, NAME, "SH001", "A12 "),
            (SECRET, NAME, "SH001A12", ""),
            (b"other-secret", NAME, "SH001", "A12"),
            (b"", NAME, "SH001", "A12"),
        ];
        for (secret, name, code, desk) in cases {
            assert!(
                !verify(secret, name, code, desk, &s),
                "{name} {code} {desk:?}"
            );
        }
        // Moving bytes between fields changes the sign.
        assert_ne!(sign(SECRET, "ab", "c", "d"), sign(SECRET, "a", "bc", "d"));
        assert_ne!(sign(SECRET, "a", "b", ""), sign(SECRET, "a", "", "b"));
    }

    #[test]
    fn malformed_signs_fail() {
        let good = sign(SECRET, NAME, "SH001", "A12");
        let mut flipped = good.clone().into_bytes();
        flipped[63] = if flipped[63] == b'0' { b'1' } else { b'0' };
        let flipped = String::from_utf8(flipped).unwrap();
        let cases = [
            String::new(),
            good[..62].to_string(),
            good[..63].to_string(),
            format!("{good}00"),
            format!(" {good}"),
            format!("{}zz", &good[..62]),
            format!("{}é", &good[..62]),
            "0".repeat(64),
            flipped,
        ];
        for s in cases {
            assert!(!verify(SECRET, NAME, "SH001", "A12", &s), "{s:?}");
        }
    }

    #[test]
    fn hex_helpers() {
        assert_eq!(crate::hex::encode(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        assert_eq!(from_hex("000fA5ff"), Some(vec![0x00, 0x0f, 0xa5, 0xff]));
        assert_eq!(from_hex(""), Some(vec![]));
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("+1"), None);
        assert_eq!(from_hex("g0"), None);
    }

    #[test]
    fn table_link_cases() {
        let s = sign(SECRET, NAME, "SH001", "A12");
        let want = format!(
            "https://h5.example.com/menu?storeName=%E5%BF%85%E8%83%9C%E5%AE%A2%E4%BA%BA%E6%B0%91\
             %E5%B9%BF%E5%9C%BA%E5%BA%97&storeCode=SH001&deskNo=A12&sign={s}"
        );
        for base in ["https://h5.example.com", "https://h5.example.com/"] {
            assert_eq!(table_link(base, NAME, "SH001", "A12", &s), want);
        }
        assert_eq!(
            table_link(
                "http://localhost:8080/app",
                "a b&c=d+e/f?g#h%i~j.k_l-m",
                "S",
                "1",
                "x"
            ),
            "http://localhost:8080/app/menu?storeName=a%20b%26c%3Dd%2Be%2Ff%3Fg%23h%25i~j.k_l-m\
             &storeCode=S&deskNo=1&sign=x"
        );
    }

    #[test]
    fn valid_desk_no_cases() {
        let cases = [
            ("A12", true),
            ("1", true),
            ("B-07", true),
            ("abcdefghijklmnop", true),   // 16
            ("abcdefghijklmnopq", false), // 17
            ("", false),
            ("A 12", false),
            ("A_12", false),
            ("桌1", false),
            ("Ａ12", false), // full-width A
            ("A12\n", false),
        ];
        for (s, want) in cases {
            assert_eq!(valid_desk_no(s), want, "{s:?}");
        }
    }

    #[test]
    fn lifetime_is_an_hour() {
        assert_eq!(SCAN_INFO_LIFETIME_MS, 3600 * 1000);
    }
}
