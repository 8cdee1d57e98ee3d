//! A polling session taken over by a WebSocket: attached, probed, then completed or aborted.

use super::{Phase, Session, SessionTransport, Upgrade};
use crate::realtime::engineio::packet::Packet;
use crate::realtime::engineio::websocket::link::WsLink;

impl Session {
    /// A WebSocket with this session's sid connected. False if the session cannot be upgraded
    /// (closed, not polling, or another upgrade under way).
    pub(crate) fn attach_upgrade(&self, ws: WsLink) -> bool {
        let mut state = self.lock();
        if state.phase != Phase::Open
            || !matches!(state.transport, SessionTransport::Polling)
            || !matches!(state.upgrade, Upgrade::None)
        {
            return false;
        }
        state.upgrade = Upgrade::Attached(ws);
        true
    }

    /// The upgrading WebSocket answered the probe.
    pub(crate) fn probed(&self) {
        {
            let mut state = self.lock();
            if let Upgrade::Attached(ws) = std::mem::replace(&mut state.upgrade, Upgrade::None) {
                state.upgrade = Upgrade::Probed(ws);
            } else {
                return;
            }
        }
        self.wake.notify_one();
    }

    /// The client sent `upgrade`: the WebSocket becomes the transport, and what was queued for
    /// polling is written to it first (under the lock, so nothing newer overtakes it). False
    /// if the upgrade is off.
    pub(crate) fn complete_upgrade(&self) -> bool {
        {
            let mut state = self.lock();
            if state.phase != Phase::Open {
                return false;
            }
            let ws = match std::mem::replace(&mut state.upgrade, Upgrade::None) {
                Upgrade::Attached(ws) | Upgrade::Probed(ws) => ws,
                Upgrade::None => return false,
            };
            let queued: Vec<Packet> = state.queue.drain(..).collect();
            ws.send(&queued);
            state.transport = SessionTransport::WebSocket(ws);
        }
        self.wake.notify_one();
        true
    }

    /// The upgrading WebSocket gave up (closed, timed out, or sent something unexpected).
    pub(crate) fn abort_upgrade(&self) {
        self.lock().upgrade = Upgrade::None;
    }
}
