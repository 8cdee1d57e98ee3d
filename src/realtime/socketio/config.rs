//! Socket.IO server settings: connect timeout, ack timeout, connection state recovery.

use std::time::Duration;

/// How a [`super::SocketIo`] server behaves. `Default` gives the reference server's values,
/// with connection state recovery switched on (2 minutes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocketIoConfig {
    /// Time a new Engine.IO session has to connect to a namespace before it is closed
    /// (`connectTimeout`).
    pub connect_timeout: Duration,
    /// How long [`super::Socket::emit_with_ack`] waits when it is given no timeout.
    pub ack_timeout: Duration,
    /// Attachments allowed in one BINARY_EVENT or BINARY_ACK from a client.
    pub max_attachments: usize,
    /// Connection state recovery (`connectionStateRecovery`); `None` switches it off, and the
    /// CONNECT answer then carries only the socket id, as the conformance fixture expects.
    pub recovery: Option<RecoveryConfig>,
}

/// Connection state recovery: a client that lost its connection comes back within the window
/// with its private session id and last offset, and gets its socket id, its rooms and the
/// broadcasts it missed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveryConfig {
    /// How long a disconnected session, and each broadcast in the history, is kept
    /// (`maxDisconnectionDuration`).
    pub max_disconnection_duration: Duration,
    /// Most broadcasts kept per namespace; older ones are dropped first (a client that missed
    /// a dropped one is then told it did not recover).
    pub max_history: usize,
}

impl Default for RecoveryConfig {
    fn default() -> Self {
        RecoveryConfig {
            max_disconnection_duration: Duration::from_secs(120),
            max_history: 10_000,
        }
    }
}

impl Default for SocketIoConfig {
    fn default() -> Self {
        SocketIoConfig {
            connect_timeout: Duration::from_secs(45),
            ack_timeout: Duration::from_secs(10),
            max_attachments: super::assembler::DEFAULT_MAX_ATTACHMENTS,
            recovery: Some(RecoveryConfig::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let config = SocketIoConfig::default();
        assert_eq!(config.connect_timeout, Duration::from_millis(45_000));
        let recovery = config.recovery.unwrap_or_else(|| panic!("recovery is on"));
        assert_eq!(
            recovery.max_disconnection_duration,
            Duration::from_secs(120)
        );
    }
}
