//! A session's polling side: a GET waiting for packets, and the mark that one POST is read at a
//! time.

use super::{Phase, Session, SessionTransport, Upgrade};
use crate::realtime::engineio::handler::DisconnectReason;
use crate::realtime::engineio::packet::Packet;
use std::sync::Arc;

/// What a GET gets.
pub(crate) enum PollOutcome {
    /// The payload to answer with.
    Payload(Vec<Packet>),
    /// Another GET was already waiting: the session is now closed.
    Overlap,
    /// The session closed before this GET.
    Closed,
    /// The session has moved to WebSocket.
    NotPolling,
}

impl Session {
    /// Waits for packets for a GET.
    pub(crate) async fn poll(self: &Arc<Self>) -> PollOutcome {
        {
            let mut state = self.lock();
            if state.phase == Phase::Closed {
                return PollOutcome::Closed;
            }
            if !matches!(state.transport, SessionTransport::Polling) {
                return PollOutcome::NotPolling;
            }
            if state.polling {
                drop(state);
                self.close(DisconnectReason::TransportError);
                return PollOutcome::Overlap;
            }
            state.polling = true;
        }
        let mut guard = PollGuard {
            session: Arc::clone(self),
            armed: true,
        };
        loop {
            let woken = self.wake.notified();
            let (batch, closing) = {
                let mut state = self.lock();
                if let Some(reply) = state.poll_reply.take() {
                    state.polling = false;
                    (Some(vec![reply]), false)
                } else if state.phase == Phase::Closed {
                    state.polling = false;
                    (Some(vec![Packet::Close]), false)
                } else if !state.queue.is_empty() {
                    state.polling = false;
                    let batch: Vec<Packet> = state.queue.drain(..).collect();
                    (Some(batch), matches!(state.phase, Phase::Closing(_)))
                } else if matches!(state.upgrade, Upgrade::Probed(_))
                    || matches!(state.transport, SessionTransport::WebSocket(_))
                {
                    // Upgrading or upgraded: end this poll so the client can move on.
                    state.polling = false;
                    (Some(vec![Packet::Noop]), false)
                } else {
                    (None, false)
                }
            };
            if let Some(batch) = batch {
                guard.armed = false;
                if closing {
                    self.close(DisconnectReason::ServerClose);
                }
                return PollOutcome::Payload(batch);
            }
            woken.await;
        }
    }

    /// Marks a POST as being read; false (and the session closed) if one already is.
    pub(crate) fn begin_post(&self) -> bool {
        let overlap = {
            let mut state = self.lock();
            let overlap = state.posting;
            state.posting = true;
            overlap
        };
        if overlap {
            self.close(DisconnectReason::TransportError);
        }
        !overlap
    }

    pub(crate) fn end_post(&self) {
        self.lock().posting = false;
    }
}

/// Clears the polling flag if a GET's future is dropped before it answered (the client went
/// away): like the reference server, the session then closes.
struct PollGuard {
    session: Arc<Session>,
    armed: bool,
}

impl Drop for PollGuard {
    fn drop(&mut self) {
        if self.armed {
            self.session.lock().polling = false;
            self.session.close(DisconnectReason::TransportClose);
        }
    }
}
