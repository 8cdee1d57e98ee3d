//! Engine.IO server settings: heartbeat, payload limit, upgrade.

use std::time::Duration;

/// How an [`super::EngineIo`] server behaves. `Default` gives the reference server's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// Time between two server pings (`pingInterval` of the handshake).
    pub ping_interval: Duration,
    /// Time the client has to answer a ping with a pong before the session closes.
    pub ping_timeout: Duration,
    /// Largest polling body (bytes) or WebSocket message the client may send (`maxPayload`).
    pub max_payload: usize,
    /// Time a client has to complete an upgrade (probe, then `5`) on a new WebSocket.
    pub upgrade_timeout: Duration,
    /// Whether polling sessions are offered the upgrade to WebSocket (`upgrades: ["websocket"]`).
    pub allow_upgrades: bool,
    /// Whether a session may be opened directly over WebSocket, without polling first.
    pub allow_websocket_only: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            ping_interval: Duration::from_secs(25),
            ping_timeout: Duration::from_secs(20),
            max_payload: 1_000_000,
            upgrade_timeout: Duration::from_secs(10),
            allow_upgrades: true,
            allow_websocket_only: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_reference_server() {
        let config = EngineConfig::default();
        assert_eq!(config.ping_interval, Duration::from_millis(25_000));
        assert_eq!(config.ping_timeout, Duration::from_millis(20_000));
        assert_eq!(config.max_payload, 1_000_000);
        assert_eq!(config.upgrade_timeout, Duration::from_millis(10_000));
        assert!(config.allow_upgrades && config.allow_websocket_only);
    }
}
