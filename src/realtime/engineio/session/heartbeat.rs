//! A session's heartbeat: the server pings, and a ping unanswered past its deadline closes the
//! session.

use super::{Phase, Session, State};
use crate::realtime::engineio::config::EngineConfig;
use crate::realtime::engineio::handler::DisconnectReason;
use crate::realtime::engineio::packet::Packet;
use std::sync::Arc;
use tokio::sync::Notify;
use tokio::time::{sleep_until, Instant};

/// How a ping in flight stands when its deadline passes.
enum PongStatus {
    Answered(Instant),
    Waiting(Instant),
    Expired,
}

impl Session {
    /// Closes the session if its ping went unanswered past the deadline (a request may arrive
    /// a moment before the heartbeat task notices). Returns whether the session is still open.
    pub(crate) fn check_alive(&self) -> bool {
        let expired = {
            let state = self.lock();
            match state.phase {
                Phase::Closed => return false,
                Phase::Open | Phase::Closing(_) => {
                    matches!(Self::pong_status(&state, &self.config), PongStatus::Expired)
                }
            }
        };
        if expired {
            self.close(DisconnectReason::PingTimeout);
        }
        !expired
    }

    fn pong_status(state: &State, config: &EngineConfig) -> PongStatus {
        let now = Instant::now();
        match state.ping_deadline {
            None => PongStatus::Answered(state.last_pong.unwrap_or(now)),
            Some(deadline) => {
                let deadline = deadline.max(state.last_packet + config.ping_timeout);
                if now < deadline {
                    PongStatus::Waiting(deadline)
                } else {
                    PongStatus::Expired
                }
            }
        }
    }

    /// Sends a ping due to be answered by `deadline`. False once the session is closed.
    fn ping(&self, deadline: Instant) -> bool {
        {
            let mut state = self.lock();
            match state.phase {
                Phase::Closed => return false,
                // No ping while closing, but the deadline still ends a session nobody polls.
                Phase::Closing(_) => {
                    state.ping_deadline = Some(deadline);
                    return true;
                }
                Phase::Open => state.ping_deadline = Some(deadline),
            }
        }
        self.send(vec![Packet::Ping(None)]);
        true
    }
}

/// Pings every `ping_interval` (counted from the last pong) and closes the session when a
/// ping stays unanswered for `ping_timeout`.
pub(super) async fn heartbeat(session: Arc<Session>) {
    let interval = session.config.ping_interval;
    let mut next_ping = Instant::now() + interval;
    loop {
        if !sleep_unless_closed(next_ping, &session.closed).await {
            return;
        }
        let mut deadline = next_ping + session.config.ping_timeout;
        if !session.ping(deadline) {
            return;
        }
        loop {
            tokio::select! {
                _ = sleep_until(deadline) => {}
                _ = session.pong.notified() => {}
                _ = session.closed.notified() => return,
            }
            let status = {
                let state = session.lock();
                if state.phase == Phase::Closed {
                    return;
                }
                Session::pong_status(&state, &session.config)
            };
            match status {
                PongStatus::Answered(at) => {
                    next_ping = at + interval;
                    break;
                }
                PongStatus::Waiting(later) => deadline = later,
                PongStatus::Expired => {
                    session.close(DisconnectReason::PingTimeout);
                    return;
                }
            }
        }
    }
}

/// Sleeps until `at`; false if the session closed first.
async fn sleep_unless_closed(at: Instant, closed: &Notify) -> bool {
    tokio::select! {
        _ = sleep_until(at) => true,
        _ = closed.notified() => false,
    }
}
