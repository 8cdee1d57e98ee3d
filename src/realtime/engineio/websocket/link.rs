//! The outbound side of a connection: the [`WsLink`] writers encode frames into, and the flush
//! task that writes every link written to on a thread once the writing task yields.

use crate::realtime::engineio::handler::Message;
use crate::realtime::engineio::packet::Packet;
use crate::realtime::engineio::ws_frame;
use std::cell::{Cell, RefCell};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::net::TcpStream;
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::Notify;

/// A client that lets this much pile up unread is dropped (it may reconnect and recover).
const MAX_PENDING: usize = 8 << 20;

/// The write side of a connection, shared by the session (which writes) and the connection's
/// task (which flushes what the socket could not take and reads).
#[derive(Clone)]
pub(crate) struct WsLink(pub(super) Arc<Link>);

pub(super) struct Link {
    pub(super) stream: TcpStream,
    out: Mutex<Out>,
    /// Wakes the task: something is pending, or the link is closing or broken.
    pub(super) wake: Notify,
}

#[derive(Default)]
pub(super) struct Out {
    /// Encoded frames the socket has not taken yet.
    pub(super) pending: Vec<u8>,
    /// Close once `pending` is flushed.
    pub(super) closing: bool,
    /// A write failed or the client fell too far behind: nothing more is written.
    pub(super) broken: bool,
    /// In this thread's list of links to flush.
    scheduled: bool,
    /// Written to while its own connection handles a read: that connection flushes it.
    flush_after_read: bool,
}

thread_local! {
    /// Links written to by the running task, flushed when it yields.
    static TO_FLUSH: RefCell<Vec<WsLink>> = const { RefCell::new(Vec::new()) };
    /// The link whose connection is handling what it just read (its address), if any: what is
    /// written to it meanwhile (acks, mostly) is flushed by that connection once the whole read
    /// is handled, one write for all, without a flush task.
    static READING: Cell<usize> = const { Cell::new(0) };
}

/// Marks `link` as handling its read until dropped.
pub(super) struct ReadTurn;

impl ReadTurn {
    pub(super) fn start(link: &WsLink) -> ReadTurn {
        READING.with(|r| r.set(Arc::as_ptr(&link.0) as usize));
        ReadTurn
    }
}

impl Drop for ReadTurn {
    fn drop(&mut self) {
        READING.with(|r| r.set(0));
    }
}

/// Puts `link` on this thread's flush list, starting the flush task if the list was empty.
/// False when there is no single-threaded runtime here to run that task on this thread (the
/// caller then writes at once).
fn schedule_flush(link: &WsLink) -> bool {
    let Ok(runtime) = Handle::try_current() else {
        return false;
    };
    if runtime.runtime_flavor() != RuntimeFlavor::CurrentThread {
        return false;
    }
    TO_FLUSH.with(|list| {
        let mut list = list.borrow_mut();
        if list.is_empty() {
            runtime.spawn(FlushTask { done: false });
        }
        list.push(link.clone());
    });
    true
}

/// Flushes this thread's list when it runs, or when it is dropped without running (its
/// runtime shut down first): the list must never be left non-empty with no task to empty it,
/// or the next runtime on this thread would never flush.
struct FlushTask {
    done: bool,
}

impl std::future::Future for FlushTask {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, _cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        self.done = true;
        flush_scheduled();
        std::task::Poll::Ready(())
    }
}

impl Drop for FlushTask {
    fn drop(&mut self) {
        if !self.done {
            flush_scheduled();
        }
    }
}

fn flush_scheduled() {
    // `try_with`: a task dropped while the thread exits finds its list gone, and nothing to do.
    let Ok(links) = TO_FLUSH.try_with(|list| std::mem::take(&mut *list.borrow_mut())) else {
        return;
    };
    for link in links {
        let mut out = link.lock();
        out.scheduled = false;
        link.flush_locked(&mut out);
        let waiting = !out.pending.is_empty() || out.broken;
        drop(out);
        if waiting {
            link.0.wake.notify_one();
        }
    }
}

impl WsLink {
    pub(super) fn new(stream: TcpStream) -> Self {
        WsLink(Arc::new(Link {
            stream,
            out: Mutex::new(Out::default()),
            wake: Notify::new(),
        }))
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Out> {
        self.0.out.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes packets in order, each as one frame.
    pub(crate) fn send(&self, packets: &[Packet]) {
        self.write(|pending| {
            for packet in packets {
                ws_frame::put_packet(pending, packet);
            }
        });
    }

    /// Writes messages in order, each as one frame.
    pub(crate) fn send_messages(&self, messages: &[Message]) {
        if messages.is_empty() {
            return;
        }
        self.write(|pending| {
            for message in messages {
                ws_frame::put_message(pending, message);
            }
        });
    }

    /// Appends frames (`encode` writes them) and has them written.
    fn write(&self, encode: impl FnOnce(&mut Vec<u8>)) {
        let mut out = self.lock();
        if out.closing || out.broken {
            return;
        }
        let was_idle = out.pending.is_empty();
        encode(&mut out.pending);
        if !was_idle {
            // Already scheduled, or waiting for the socket.
            if out.pending.len() > MAX_PENDING {
                metrics::counter!("socketio_clients_cut_off_total").increment(1);
                out.broken = true;
                out.pending = Vec::new();
                drop(out);
                self.0.wake.notify_one();
            }
            return;
        }
        if READING.with(Cell::get) == Arc::as_ptr(&self.0) as usize {
            out.flush_after_read = true;
            return;
        }
        if !out.scheduled && schedule_flush(self) {
            out.scheduled = true;
            return;
        }
        self.flush_locked(&mut out);
        if !out.pending.is_empty() || out.broken {
            drop(out);
            self.0.wake.notify_one();
        }
    }

    /// Writes what was written during the read just handled (see `READING`).
    pub(super) fn flush_after_read(&self) {
        let mut out = self.lock();
        if !std::mem::take(&mut out.flush_after_read) {
            return;
        }
        self.flush_locked(&mut out);
        if !out.pending.is_empty() || out.broken {
            drop(out);
            self.0.wake.notify_one();
        }
    }

    /// Closes the connection once what is already written is flushed.
    pub(crate) fn close(&self) {
        self.lock().closing = true;
        self.0.wake.notify_one();
    }

    /// Writes as much of `pending` as the socket takes without waiting.
    pub(super) fn flush_locked(&self, out: &mut Out) {
        while !out.pending.is_empty() {
            match self.0.stream.try_write(&out.pending) {
                Ok(0) => {
                    out.broken = true;
                    break;
                }
                Ok(n) => {
                    out.pending.drain(..n);
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    out.broken = true;
                    break;
                }
            }
        }
        if out.broken || out.pending.is_empty() {
            // Given back at once: an idle socket holds no write buffer either.
            out.pending = Vec::new();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::tests::{pair, runtime};
    use super::*;
    use std::io::Read;

    #[test]
    fn writes_after_a_runtime_shut_down_with_a_flush_pending_still_go_out() {
        // A runtime ends before its flush task ran (block_on returns as soon as its own
        // future is done), as a test's runtime or a stopping worker's may.
        let (server_one, _client_one) = pair();
        let first = runtime();
        first.block_on(async {
            let link = WsLink::new(TcpStream::from_std(server_one).unwrap());
            link.send(&[Packet::Message("one".into())]);
        });
        drop(first);

        // The next runtime on this thread gets its writes out.
        let (server_two, mut client_two) = pair();
        runtime().block_on(async {
            let link = WsLink::new(TcpStream::from_std(server_two).unwrap());
            // Until the reactor has seen the socket writable, writes wait for the connection's
            // task, which this test does not run.
            link.0.stream.writable().await.unwrap();
            link.send(&[Packet::Message("two".into())]);
            tokio::task::yield_now().await;
        });
        let mut frame = [0u8; 6];
        client_two.read_exact(&mut frame).unwrap();
        assert_eq!(&frame, b"\x81\x044two");
    }
}
