//! Server-to-client WebSocket frames (RFC 6455 §5.2): unmasked, unfragmented. Frames from the
//! client are decoded by actix-http's `ws::Codec`.

use super::handler::Message;
use super::packet::Packet;

const FIN: u8 = 0x80;
pub(crate) const OP_TEXT: u8 = 0x1;
pub(crate) const OP_BINARY: u8 = 0x2;
pub(crate) const OP_CLOSE: u8 = 0x8;
pub(crate) const OP_PONG: u8 = 0xA;

/// Appends the header of a final frame of `len` payload bytes, with room for the payload: a
/// socket's first frame after an idle spell is then one allocation, not a growth per append.
pub(crate) fn put_header(out: &mut Vec<u8>, opcode: u8, len: usize) {
    let header = match len {
        0..126 => 2,
        126..=0xffff => 4,
        _ => 10,
    };
    out.reserve(header + len);
    out.push(FIN | opcode);
    if len < 126 {
        out.push(len as u8);
    } else if let Ok(short) = u16::try_from(len) {
        out.push(126);
        out.extend_from_slice(&short.to_be_bytes());
    } else {
        out.push(127);
        out.extend_from_slice(&(len as u64).to_be_bytes());
    }
}

/// Appends one frame.
pub(crate) fn put_frame(out: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
    put_header(out, opcode, payload.len());
    out.extend_from_slice(payload);
}

/// Appends an Engine.IO packet as one frame: binary data as a binary frame, the rest as text.
/// A message, by far the most frequent, is written without building its text first.
pub(crate) fn put_packet(out: &mut Vec<u8>, packet: &Packet) {
    match packet {
        Packet::Binary(data) => put_frame(out, OP_BINARY, data),
        Packet::Message(text) => put_text_message(out, text),
        other => {
            let text = other.encode_text().unwrap_or_default();
            put_frame(out, OP_TEXT, text.as_bytes());
        }
    }
}

/// Appends an outgoing message as one frame (the same frame as its packet would make).
pub(crate) fn put_message(out: &mut Vec<u8>, message: &Message) {
    match message {
        Message::Binary(data) => put_frame(out, OP_BINARY, data),
        Message::Text(text) => put_text_message(out, text),
    }
}

/// An Engine.IO message packet (`4` and the text) as one text frame.
fn put_text_message(out: &mut Vec<u8>, text: &str) {
    put_header(out, OP_TEXT, text.len() + 1);
    out.push(b'4');
    out.extend_from_slice(text.as_bytes());
}

/// The payload of a close frame: the status code, big-endian (1000: normal closure).
pub(crate) fn close_payload(code: u16) -> [u8; 2] {
    code.to_be_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(opcode: u8, len: usize) -> Vec<u8> {
        let mut out = Vec::new();
        put_header(&mut out, opcode, len);
        out
    }

    #[test]
    fn header_length_takes_the_shortest_form() {
        let cases: [(usize, Vec<u8>); 6] = [
            (0, vec![0x81, 0]),
            (125, vec![0x81, 125]),
            (126, vec![0x81, 126, 0, 126]),
            (65_535, vec![0x81, 126, 0xff, 0xff]),
            (65_536, vec![0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]),
            (1_000_000, vec![0x81, 127, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40]),
        ];
        for (len, expected) in cases {
            assert_eq!(frame(OP_TEXT, len), expected, "length {len}");
        }
    }

    #[test]
    fn packets_become_text_or_binary_frames() {
        let cases: [(Packet, Vec<u8>); 5] = [
            (Packet::Message("hi".into()), b"\x81\x034hi".to_vec()),
            (Packet::Message(String::new()), b"\x81\x014".to_vec()),
            (Packet::Ping(None), b"\x81\x012".to_vec()),
            (
                Packet::Pong(Some("probe".into())),
                b"\x81\x063probe".to_vec(),
            ),
            (Packet::Binary(vec![1, 2, 3]), vec![0x82, 3, 1, 2, 3]),
        ];
        for (packet, expected) in cases {
            let mut out = Vec::new();
            put_packet(&mut out, &packet);
            assert_eq!(out, expected, "{packet:?}");
        }
    }

    #[test]
    fn messages_make_the_frames_of_their_packets() {
        let messages = [
            Message::Text("2[\"tick\"]".into()),
            Message::Binary(vec![9; 200]),
        ];
        for message in messages {
            let (mut direct, mut via_packet) = (Vec::new(), Vec::new());
            put_message(&mut direct, &message);
            put_packet(&mut via_packet, &Packet::from(message.clone()));
            assert_eq!(direct, via_packet, "{message:?}");
        }
    }

    #[test]
    fn a_long_message_has_an_extended_length() {
        let text = "x".repeat(300);
        let mut out = Vec::new();
        put_packet(&mut out, &Packet::Message(text.clone()));
        assert_eq!(&out[..4], &[0x81, 126, 1, 45]);
        assert_eq!(out[4], b'4');
        assert_eq!(&out[5..], text.as_bytes());
    }

    #[test]
    fn close_payload_is_the_code_big_endian() {
        assert_eq!(close_payload(1000), [0x03, 0xe8]);
        let mut out = Vec::new();
        put_frame(&mut out, OP_CLOSE, &close_payload(1000));
        assert_eq!(out, vec![0x88, 2, 0x03, 0xe8]);
    }
}
