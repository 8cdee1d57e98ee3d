//! [`BinaryPacketAssembler`]: per-connection decoding of Socket.IO packets, collecting a
//! BINARY_EVENT/BINARY_ACK header and the binary Engine.IO messages that follow it.

use serde_json::Value;

use super::binary::{check_placeholders, reconstruct};
use super::packet::{Packet, ParseError};

/// Attachments allowed per packet by [`BinaryPacketAssembler::default`].
pub const DEFAULT_MAX_ATTACHMENTS: usize = 64;

/// A complete packet with its buffers (none for non-binary kinds); `data` keeps placeholders.
#[derive(Debug, Clone, PartialEq)]
pub struct AssembledPacket {
    pub packet: Packet,
    pub buffers: Vec<Vec<u8>>,
}

impl AssembledPacket {
    /// The data with placeholders replaced by binary markers (binary kinds only: placeholders
    /// in a plain EVENT are ordinary objects, as in the reference implementation).
    pub fn reconstructed_data(&self) -> Result<Option<Value>, ParseError> {
        match &self.packet.data {
            Some(data) if self.packet.kind.is_binary() => {
                reconstruct(data, &self.buffers).map(Some)
            }
            data => Ok(data.clone()),
        }
    }

    /// [`reconstructed_data`](Self::reconstructed_data), taking the packet apart instead of
    /// copying its data.
    pub fn into_data(self) -> Result<Option<Value>, ParseError> {
        match self.packet.data {
            Some(data) if self.packet.kind.is_binary() => {
                reconstruct(&data, &self.buffers).map(Some)
            }
            data => Ok(data),
        }
    }
}

/// Per-connection decoder state: text packets pass through, a binary header waits for its
/// buffers. Any error leaves the assembler idle; the connection should then be closed.
#[derive(Debug)]
pub struct BinaryPacketAssembler {
    max_attachments: usize,
    pending: Option<(Packet, Vec<Vec<u8>>)>,
}

impl Default for BinaryPacketAssembler {
    fn default() -> Self {
        BinaryPacketAssembler::new(DEFAULT_MAX_ATTACHMENTS)
    }
}

impl BinaryPacketAssembler {
    pub fn new(max_attachments: usize) -> Self {
        BinaryPacketAssembler {
            max_attachments,
            pending: None,
        }
    }

    /// Whether a binary header is waiting for buffers.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    pub fn reset(&mut self) {
        self.pending = None;
    }

    /// Parses a text Engine.IO message and feeds it to [`Self::push_packet`].
    pub fn push_text(&mut self, text: &str) -> Result<Option<AssembledPacket>, ParseError> {
        if self.pending.take().is_some() {
            return Err(ParseError::UnexpectedText);
        }
        self.push_packet(Packet::parse(text)?)
    }

    /// A non-binary packet, or a binary header with 0 attachments, is complete at once;
    /// otherwise the header waits for its buffers.
    pub fn push_packet(&mut self, packet: Packet) -> Result<Option<AssembledPacket>, ParseError> {
        if self.pending.take().is_some() {
            return Err(ParseError::UnexpectedText);
        }
        if !packet.kind.is_binary() {
            return Ok(Some(AssembledPacket {
                packet,
                buffers: Vec::new(),
            }));
        }
        if packet.attachments > self.max_attachments {
            return Err(ParseError::TooManyAttachments);
        }
        if let Some(data) = &packet.data {
            check_placeholders(data, packet.attachments)?;
        }
        if packet.attachments == 0 {
            return Ok(Some(AssembledPacket {
                packet,
                buffers: Vec::new(),
            }));
        }
        let buffers = Vec::with_capacity(packet.attachments);
        self.pending = Some((packet, buffers));
        Ok(None)
    }

    /// A binary Engine.IO message: the next buffer of the pending packet.
    pub fn push_binary(&mut self, buffer: Vec<u8>) -> Result<Option<AssembledPacket>, ParseError> {
        let (packet, mut buffers) = self.pending.take().ok_or(ParseError::UnexpectedBuffer)?;
        buffers.push(buffer);
        if buffers.len() < packet.attachments {
            self.pending = Some((packet, buffers));
            return Ok(None);
        }
        Ok(Some(AssembledPacket { packet, buffers }))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::realtime::socketio::binary::binary_value;
    use serde_json::json;

    fn ph(n: u64) -> Value {
        json!({"_placeholder": true, "num": n})
    }

    fn bin(b: &[u8]) -> Value {
        binary_value(b)
    }

    enum Step {
        T(&'static str),
        B(&'static [u8]),
    }
    use Step::{B, T};

    /// The buffer counts of the completed packets, and the error that stopped the run.
    type Outcome = (Vec<usize>, Option<ParseError>);

    /// Runs the steps until the first error.
    fn run(max: usize, steps: &[Step]) -> Outcome {
        let mut assembler = BinaryPacketAssembler::new(max);
        let mut done = Vec::new();
        for step in steps {
            let result = match step {
                T(text) => assembler.push_text(text),
                B(bytes) => assembler.push_binary(bytes.to_vec()),
            };
            match result {
                Ok(Some(assembled)) => done.push(assembled.buffers.len()),
                Ok(None) => {}
                Err(e) => return (done, Some(e)),
            }
        }
        (done, None)
    }

    #[test]
    fn assembles_binary_packets() {
        use ParseError::*;
        let ev2 = r#"52-["m",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#;
        let ev1 = r#"51-["m",{"_placeholder":true,"num":0}]"#;
        #[rustfmt::skip]
        let cases: Vec<(usize, Vec<Step>, Outcome)> = vec![
            (8, vec![T(r#"2["a"]"#)], (vec![0], None)),
            (8, vec![T(ev2), B(&[1, 2, 3]), B(&[4, 5, 6])], (vec![2], None)),
            (8, vec![T(ev2), B(&[1])], (vec![], None)),
            (8, vec![T(ev1), B(&[1]), T(r#"2["a"]"#)], (vec![1, 0], None)),
            (8, vec![T(ev1), B(&[1]), T(ev1), B(&[]),], (vec![1, 1], None)),
            (8, vec![T(r#"50-["m"]"#), T(r#"2["a"]"#)], (vec![0, 0], None)),
            (8, vec![T(r#"61-3[{"_placeholder":true,"num":0}]"#), B(&[7])], (vec![1], None)),
            (8, vec![B(&[1])], (vec![], Some(UnexpectedBuffer))),
            (8, vec![T(ev1), B(&[1]), B(&[2])], (vec![1], Some(UnexpectedBuffer))),
            (8, vec![T(r#"2["a"]"#), B(&[1])], (vec![0], Some(UnexpectedBuffer))),
            (8, vec![T(ev2), B(&[1]), T(r#"2["a"]"#)], (vec![], Some(UnexpectedText))),
            (8, vec![T(ev2), T(ev2)], (vec![], Some(UnexpectedText))),
            (8, vec![T(r#"51-["m",{"_placeholder":true,"num":1}]"#)], (vec![], Some(IllegalAttachments))),
            (8, vec![T(r#"50-["m",{"_placeholder":true,"num":0}]"#)], (vec![], Some(IllegalAttachments))),
            (1, vec![T(ev2)], (vec![], Some(TooManyAttachments))),
            (2, vec![T(ev2), B(&[1]), B(&[2])], (vec![2], None)),
            (8, vec![T("5x-[]")], (vec![], Some(BadAttachments))),
            (8, vec![T("")], (vec![], Some(Empty))),
        ];
        for (i, (max, steps, expected)) in cases.into_iter().enumerate() {
            assert_eq!(run(max, &steps), expected, "case {i}");
        }
    }

    #[test]
    fn assembled_data_is_reconstructed() {
        let mut assembler = BinaryPacketAssembler::default();
        assert_eq!(
            assembler.push_text(r#"451-["m",{"_placeholder":true,"num":0}]"#.get(1..).unwrap()),
            Ok(None)
        );
        assert!(assembler.is_pending());
        let done = assembler.push_binary(vec![1, 2, 3]).unwrap().unwrap();
        assert!(!assembler.is_pending());
        assert_eq!(
            done.reconstructed_data(),
            Ok(Some(json!(["m", bin(&[1, 2, 3])])))
        );
        let plain = assembler
            .push_text(r#"2["m",{"_placeholder":true,"num":0}]"#)
            .unwrap()
            .unwrap();
        assert_eq!(plain.reconstructed_data(), Ok(Some(json!(["m", ph(0)]))));
        assembler
            .push_text(r#"51-["m",{"_placeholder":true,"num":0}]"#)
            .unwrap();
        assembler.reset();
        assert!(!assembler.is_pending());
    }
}
