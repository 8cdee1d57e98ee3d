//! An order's view token: lets someone without the customer's login follow one order (a family
//! member the link was shared with, an in-app browser that lost its session while paying). It
//! is an HMAC of the order number under a server secret, so it needs no storage and cannot be
//! guessed from the order number.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Keeps view tokens apart from every other MAC made with the same secret.
const DOMAIN: &[u8] = b"pizza-order/order-view/v1\n";
/// 128 bits, as 32 hex digits: short enough for a link, far beyond guessing.
const TOKEN_BYTES: usize = 16;

fn tag(secret: &[u8], order_no: &str) -> Option<Vec<u8>> {
    let mut mac = HmacSha256::new_from_slice(secret).ok()?;
    mac.update(DOMAIN);
    mac.update(order_no.as_bytes());
    Some(mac.finalize().into_bytes()[..TOKEN_BYTES].to_vec())
}

pub fn view_token(secret: &[u8], order_no: &str) -> String {
    tag(secret, order_no)
        .map(|t| crate::hex::encode(&t))
        .unwrap_or_default()
}

/// Constant-time check of a presented token.
pub fn verify(secret: &[u8], order_no: &str, token: &str) -> bool {
    let Some(expected) = tag(secret, order_no) else {
        return false;
    };
    let presented: Option<Vec<u8>> = (token.len() == TOKEN_BYTES * 2)
        .then(|| {
            (0..TOKEN_BYTES)
                .map(|i| u8::from_str_radix(token.get(i * 2..i * 2 + 2)?, 16).ok())
                .collect()
        })
        .flatten();
    let Some(presented) = presented else {
        return false;
    };
    // Every byte is compared whatever the first difference.
    expected
        .iter()
        .zip(&presented)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_for_their_order_and_secret() {
        let t = view_token(b"secret-one-0123456789", "261123120000123456");
        assert_eq!(t.len(), 32);
        assert!(verify(b"secret-one-0123456789", "261123120000123456", &t));
        assert!(!verify(b"secret-one-0123456789", "261123120000123457", &t));
        assert!(!verify(b"secret-two-0123456789", "261123120000123456", &t));
        for bad in ["", "zz", &t[..31], &format!("{t}0"), &"g".repeat(32)] {
            assert!(
                !verify(b"secret-one-0123456789", "261123120000123456", bad),
                "{bad}"
            );
        }
    }
}
