//! Engine.IO long-polling bodies: `decode_payload(body, max_payload)`.
//!
//! Input layout: the first byte picks `max_payload` (0..=63 bytes for the size check, anything
//! else 1 MiB); the rest is the body, which must be UTF-8 (the server refuses other bodies
//! before decoding).
//!
//! Checks: no panic; the size limit is honoured; a decoded body has one packet per segment;
//! encoding the decoded packets and decoding again gives the same packets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pizza_order::realtime::engineio::payload::{
    decode_payload, encode_payload, PayloadError, SEPARATOR,
};

fuzz_target!(|data: &[u8]| {
    let Some((&limit, rest)) = data.split_first() else {
        return;
    };
    let max_payload = if limit < 64 { usize::from(limit) } else { 1 << 20 };
    let Ok(body) = std::str::from_utf8(rest) else {
        return;
    };

    match decode_payload(body, max_payload) {
        Ok(packets) => {
            assert!(body.len() <= max_payload, "accepted {} > {max_payload} bytes", body.len());
            assert_eq!(packets.len(), body.matches(SEPARATOR).count() + 1, "body {body:?}");
            let encoded = encode_payload(&packets);
            assert_eq!(
                decode_payload(&encoded, usize::MAX).as_ref(),
                Ok(&packets),
                "body {body:?} encoded as {encoded:?}"
            );
        }
        Err(PayloadError::TooLarge) => assert!(body.len() > max_payload),
        Err(_) => {}
    }
});
