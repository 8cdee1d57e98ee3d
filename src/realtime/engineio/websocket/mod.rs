//! The WebSocket transport: one task per connection, either opening a new session or upgrading a
//! polling one (probe `2probe`/`3probe`, then `5`).
//!
//! Memory is what limits how many sockets a node holds, so an idle connection keeps no buffer:
//! the task owns the TCP stream (handed over by [`super::upgrade`] once the handshake is
//! answered) and reads into a buffer only while bytes are arriving.
//!
//! Writes need no wake-up of the connection's task: the writer (the session under its lock, or
//! a Socket.IO socket under its own, see [`super::handler::DirectWriter`]) encodes the frames
//! into the [`WsLink`](link::WsLink), and the link is written out once the writer's own task
//! yields, by one flush task for every link written to meanwhile on that thread. So a
//! broadcast costs one write per socket, and a burst of them too, however many events it
//! holds. Only what the kernel does not take waits for the connection's task.
//!
//! [`link`] is that outbound side (the link, its flush task and when it runs);
//! [`connection`] is the connection's task (its start, read loop and close).

pub(super) mod connection;
pub(super) mod link;
#[cfg(test)]
mod tests;
