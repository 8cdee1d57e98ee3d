//! Lowercase hex, the form every digest, token and key of ours is written in. One place, and
//! a table rather than a `format!` per byte: a session's token is hashed and written out on
//! every logged-in request, where 32 small allocations cost more than the SHA-256 itself.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_two_lowercase_digits_as_format_writes_them() {
        let all: Vec<u8> = (0..=255).collect();
        let want: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(encode(&all), want);
        assert_eq!(encode(&[]), "");
        assert_eq!(encode(&[0x0f, 0xa0]), "0fa0");
    }
}
