//! A small standard-alphabet base64 codec (RFC 4648 §4, `=` padding), enough for the
//! `b<base64>` binary packets of the Engine.IO v4 long-polling payload.
//!
//! The encoder always pads. The decoder accepts padded and unpadded input, rejects characters
//! outside the alphabet, whitespace, misplaced or excess padding and impossible lengths, and
//! ignores the unused low bits of the last character (as browsers' `atob` and Node do).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Why a string is not base64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Base64Error {
    #[error("invalid base64 character at byte {0}")]
    InvalidChar(usize),
    #[error("invalid base64 length")]
    InvalidLength,
    #[error("invalid base64 padding")]
    InvalidPadding,
}

/// Encodes `input` with the standard alphabet and `=` padding.
pub fn encode(input: &[u8]) -> String {
    let mut out = String::with_capacity(input.len().div_ceil(3) * 4);
    for chunk in input.chunks(3) {
        let b0 = chunk[0];
        let b1 = chunk.get(1).copied().unwrap_or(0);
        let b2 = chunk.get(2).copied().unwrap_or(0);
        let n = (u32::from(b0) << 16) | (u32::from(b1) << 8) | u32::from(b2);
        let sextet = |shift: u32| char::from(ALPHABET[((n >> shift) & 0x3f) as usize]);
        out.push(sextet(18));
        out.push(sextet(12));
        out.push(if chunk.len() > 1 { sextet(6) } else { '=' });
        out.push(if chunk.len() > 2 { sextet(0) } else { '=' });
    }
    out
}

fn value_of(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes standard-alphabet base64, padded or not.
pub fn decode(input: &str) -> Result<Vec<u8>, Base64Error> {
    let bytes = input.as_bytes();
    // The data part ends at the last non-`=` byte; everything after it is padding.
    let data_len = bytes.iter().rposition(|&b| b != b'=').map_or(0, |i| i + 1);
    let pad = bytes.len() - data_len;
    let mut out = Vec::with_capacity(data_len / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for (i, &b) in bytes[..data_len].iter().enumerate() {
        if b == b'=' {
            return Err(Base64Error::InvalidPadding);
        }
        let v = value_of(b).ok_or(Base64Error::InvalidChar(i))?;
        acc = ((acc << 6) | u32::from(v)) & 0xffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    // Padding: at most two `=`, and only to complete the last group of four.
    if pad > 2 || (pad > 0 && !bytes.len().is_multiple_of(4)) {
        return Err(Base64Error::InvalidPadding);
    }
    if data_len % 4 == 1 {
        return Err(Base64Error::InvalidLength);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn encodes() {
        #[rustfmt::skip]
        let cases: &[(&[u8], &str)] = &[
            (b"", ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"foobar", "Zm9vYmFy"),
            (&[1, 2, 3, 4], "AQIDBA=="),
            (&[1, 2, 3], "AQID"),
            (&[0], "AA=="),
            (&[0xff, 0xff, 0xff], "////"),
            (&[0xfb, 0xff], "+/8="),
            (&[0, 0, 0], "AAAA"),
        ];
        for (input, expected) in cases {
            assert_eq!(encode(input), *expected, "input {input:?}");
        }
    }

    #[test]
    fn decodes() {
        #[rustfmt::skip]
        let cases: &[(&str, &[u8])] = &[
            ("", b""),
            ("Zg==", b"f"),
            ("Zm8=", b"fo"),
            ("Zm9v", b"foo"),
            ("Zm9vYg==", b"foob"),
            ("Zm9vYmE=", b"fooba"),
            ("Zm9vYmFy", b"foobar"),
            ("AQIDBA==", &[1, 2, 3, 4]),
            ("AQIDBA", &[1, 2, 3, 4]),
            ("Zg", b"f"),
            ("Zm8", b"fo"),
            ("////", &[0xff, 0xff, 0xff]),
            ("+/8=", &[0xfb, 0xff]),
            ("Zh==", b"f"),
        ];
        for (input, expected) in cases {
            assert_eq!(decode(input).as_deref(), Ok(*expected), "input {input:?}");
        }
    }

    #[test]
    fn rejects() {
        #[rustfmt::skip]
        let cases: &[(&str, Base64Error)] = &[
            ("Z", Base64Error::InvalidLength),
            ("Zm9vY", Base64Error::InvalidLength),
            ("Zg=", Base64Error::InvalidPadding),
            ("Zg===", Base64Error::InvalidPadding),
            ("Zm9v=", Base64Error::InvalidPadding),
            ("Zm9v====", Base64Error::InvalidPadding),
            ("Z===", Base64Error::InvalidPadding),
            ("Zm=v", Base64Error::InvalidPadding),
            ("=Zm9", Base64Error::InvalidPadding),
            ("====", Base64Error::InvalidPadding),
            ("Zm9v\n", Base64Error::InvalidChar(4)),
            ("Zm 9v", Base64Error::InvalidChar(2)),
            ("Zm-_", Base64Error::InvalidChar(2)),
            ("Zm9é", Base64Error::InvalidChar(3)),
            ("AQIDBA=\u{1e}", Base64Error::InvalidPadding),
            ("AQ\u{1e}DBA==", Base64Error::InvalidChar(2)),
        ];
        for (input, expected) in cases {
            assert_eq!(decode(input), Err(*expected), "input {input:?}");
        }
    }

    #[test]
    fn round_trips_every_length() {
        let data: Vec<u8> = (0..=255u8).collect();
        for len in 0..data.len() {
            let slice = &data[..len];
            assert_eq!(decode(&encode(slice)).unwrap(), slice);
        }
    }
}
