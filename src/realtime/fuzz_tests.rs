//! No parser panics on any input: ~2000 pseudo-random and mutated strings and byte buffers,
//! from a fixed xorshift seed so a failure is reproducible.

#![allow(clippy::unwrap_used)]

use super::engineio::packet::Packet as EioPacket;
use super::engineio::{base64, payload};
use super::socketio::assembler::BinaryPacketAssembler;
use super::socketio::binary;
use super::socketio::packet::Packet as SioPacket;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "0",
    "0/admin,",
    r#"0/admin,{"token":"abc"}"#,
    "1/custom",
    r#"2["foo"]"#,
    r#"2/admin,13["foo",{"a":[1,2.5,null,true]}]"#,
    "312[]",
    r#"4{"message":"Not authorized"}"#,
    r#"51-["baz",{"_placeholder":true,"num":0}]"#,
    r#"52-/admin,["baz",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#,
    r#"61-/admin,1[{"_placeholder":true,"num":0}]"#,
    r#"0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#,
    "2probe",
    "3probe",
    "4hello\x1e2\x1e4world",
    "4hello\x1ebAQIDBA==",
    r#"42["hello"]\x1e42["world"]"#,
    "AQIDBA==",
    "5",
    "6",
];

const ALPHABET: &[char] = &[
    '0',
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '9',
    '/',
    ',',
    '-',
    '[',
    ']',
    '{',
    '}',
    '"',
    ':',
    '_',
    'b',
    'a',
    'n',
    'u',
    'l',
    't',
    'r',
    'e',
    '=',
    '+',
    '.',
    '\\',
    ' ',
    '\x1e',
    '\n',
    'é',
    '€',
    '\u{1f355}',
    '\u{0}',
];

fn random_string(rng: &mut XorShift) -> String {
    let len = rng.below(48);
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

fn mutate(rng: &mut XorShift, seed: &str) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for _ in 0..=rng.below(4) {
        let at = rng.below(chars.len() + 1);
        let c = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(6) {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => chars[at] = c,
            3 => chars.truncate(at),
            4 => {
                let tail: Vec<char> = chars[at..].to_vec();
                chars.extend(tail);
            }
            _ if chars.len() > 1 => {
                let other = rng.below(chars.len());
                let at = at.min(chars.len() - 1);
                chars.swap(at, other);
            }
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

fn random_bytes(rng: &mut XorShift) -> Vec<u8> {
    (0..rng.below(40)).map(|_| rng.next() as u8).collect()
}

fn exercise(rng: &mut XorShift, input: &str) {
    // Engine.IO: text packets re-encode to something that parses back to the same packet.
    if let Ok(packet) = EioPacket::parse_text(input) {
        let text = packet.encode_text().unwrap();
        assert_eq!(EioPacket::parse_text(&text), Ok(packet), "input {input:?}");
    }
    let _ = payload::decode_packet(input);
    if let Ok(packets) = payload::decode_payload(input, 64) {
        let body = payload::encode_payload(&packets);
        assert_eq!(
            payload::decode_payload(&body, usize::MAX),
            Ok(packets),
            "input {input:?}"
        );
    }
    if let Ok(bytes) = base64::decode(input) {
        assert_eq!(base64::decode(&base64::encode(&bytes)), Ok(bytes));
    }

    // Socket.IO: the header fields survive an encode/parse round trip.
    if let Ok(packet) = SioPacket::parse(input) {
        let again = SioPacket::parse(&packet.encode()).unwrap();
        assert_eq!(
            (
                again.kind,
                &again.namespace,
                again.ack_id,
                again.attachments
            ),
            (
                packet.kind,
                &packet.namespace,
                packet.ack_id,
                packet.attachments
            ),
            "input {input:?}"
        );
        if let Some(data) = &packet.data {
            let buffers: Vec<Vec<u8>> = (0..rng.below(3)).map(|_| random_bytes(rng)).collect();
            if let Ok(value) = binary::reconstruct(data, &buffers) {
                let _ = binary::deconstruct(&value);
            }
            let _ = packet.encode_with_binary();
        }
    }
    let mut assembler = BinaryPacketAssembler::new(4);
    let _ = assembler.push_text(input);
    for _ in 0..rng.below(4) {
        if rng.below(3) == 0 {
            let _ = assembler.push_text(input);
        } else {
            let _ = assembler.push_binary(random_bytes(rng));
        }
    }
}

#[test]
fn parsers_never_panic() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..1000 {
        let input = random_string(&mut rng);
        exercise(&mut rng, &input);
    }
    for i in 0..1000 {
        let input = mutate(&mut rng, SEEDS[i % SEEDS.len()]);
        exercise(&mut rng, &input);
    }
    for seed in SEEDS {
        exercise(&mut rng, seed);
    }
    for _ in 0..200 {
        let bytes = random_bytes(&mut rng);
        assert_eq!(
            EioPacket::from_binary_frame(bytes.clone()),
            EioPacket::Binary(bytes.clone())
        );
        assert_eq!(base64::decode(&base64::encode(&bytes)), Ok(bytes.clone()));
        let lossy = String::from_utf8_lossy(&bytes);
        exercise(&mut rng, &lossy);
    }
}
