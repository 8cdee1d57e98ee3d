//! A connection's task: how it starts (a new session or an upgrade), its read loop, and its
//! close.

use super::link::{ReadTurn, WsLink};
use crate::realtime::engineio::handler::{DisconnectReason, RequestInfo};
use crate::realtime::engineio::packet::Packet;
use crate::realtime::engineio::session::{Session, SessionTransport, Shared};
use crate::realtime::engineio::ws_frame::{self, OP_CLOSE, OP_PONG};
use actix_codec::Decoder;
use actix_http::ws::{Codec, Frame, Item};
use bytes::BytesMut;
use std::cell::RefCell;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use tokio::net::TcpStream;
use tokio::time::{sleep_until, Instant, Sleep};

/// How much is read at a time.
const READ_CHUNK: usize = 4096;
/// How long a closing connection may take to write what is left and its close frame: a
/// client that stopped reading must not keep it (and its socket) forever.
const CLOSE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

thread_local! {
    /// The read buffer lent to whichever connection of this thread is reading (see
    /// `Connection::read`).
    static READ_BUF: RefCell<BytesMut> = RefCell::new(BytesMut::new());
}

/// How a connection starts.
pub(crate) enum Start {
    /// A new session over this WebSocket.
    New {
        shared: Arc<Shared>,
        request: RequestInfo,
    },
    /// An upgrade of this polling session.
    Upgrade(Arc<Session>),
}

enum Mode {
    /// Probing an existing polling session.
    Upgrading(Arc<Session>),
    /// Carrying the session.
    Active(Arc<Session>),
    Done,
}

/// Runs a connection whose handshake has been answered. `read_buf` holds what the client sent
/// after its handshake request, if anything.
pub(crate) async fn run(stream: TcpStream, read_buf: BytesMut, start: Start, max_payload: usize) {
    let link = WsLink::new(stream);
    let mut connection = Connection {
        link: link.clone(),
        mode: Mode::Done,
        codec: Codec::new().max_size(max_payload),
        read_buf,
        partial: None,
        max_payload,
        upgrade_timer: None,
    };
    match start {
        Start::New { shared, request } => {
            let session = shared.create(SessionTransport::WebSocket(link.clone()), request);
            // The open packet is the first frame: the session announces itself after it.
            link.send(&[session.open_packet()]);
            connection.mode = Mode::Active(Arc::clone(&session));
            session.announce();
        }
        Start::Upgrade(session) => {
            if session.attach_upgrade(link.clone()) {
                let deadline = Instant::now() + session.config().upgrade_timeout;
                connection.upgrade_timer = Some(Box::pin(sleep_until(deadline)));
                connection.mode = Mode::Upgrading(session);
            } else {
                link.close();
            }
        }
    }
    connection.run().await;
    connection.finish();
}

struct Connection {
    link: WsLink,
    mode: Mode,
    codec: Codec,
    /// Bytes read and not yet decoded; empty (no allocation) while the client is quiet.
    read_buf: BytesMut,
    /// A fragmented message being reassembled: (is binary, bytes so far).
    partial: Option<(bool, Vec<u8>)>,
    max_payload: usize,
    /// While probing: when the upgrade gives up (boxed: only upgrades need a timer, and the
    /// connection's task should stay small for the thousands of sockets that never do).
    upgrade_timer: Option<Pin<Box<Sleep>>>,
}

/// What the task does after a wake-up.
enum Step {
    Continue,
    /// Write the close frame, then end.
    Close,
    /// End now (the peer is gone or the socket failed).
    End,
}

impl Connection {
    async fn run(&mut self) {
        // Frames that arrived with the handshake request.
        if !self.read_buf.is_empty() {
            if let Step::End | Step::Close = self.decode_all() {
                return self.close_socket().await;
            }
        }
        // A handle of its own, so the branches below may borrow `self` mutably.
        let link = Arc::clone(&self.link.0);
        // Kept registered across turns, made anew only once it fired: a `Notified` made and
        // dropped every turn took the notifier's lock twice a turn (to enter its list and to
        // leave it); a waiting one takes it once, to check its waker.
        let mut wake = std::pin::pin!(link.wake.notified());
        loop {
            let step = {
                let (pending, closing, broken) = {
                    let out = self.link.lock();
                    (!out.pending.is_empty(), out.closing, out.broken)
                };
                if broken {
                    return;
                }
                if closing {
                    return self.close_socket().await;
                }
                // One hand-rolled `select!`, in this order: the link's wake-up, the socket
                // writable (only with bytes pending), readable, the upgrade's deadline. The
                // socket's readiness is polled, not awaited: `readable()` and `writable()` are
                // futures made and dropped every turn, each entering the socket's list of
                // waiters under its lock and leaving it again, on memory a turn finds cold (the
                // largest share of the last-level misses the connection loop had in callgrind's
                // cache simulation at 10,000 sockets). `poll_*_ready` keeps this task's waker
                // in the socket's own slot, which only this task uses.
                std::future::poll_fn(|cx| {
                    if wake.as_mut().poll(cx).is_ready() {
                        wake.set(link.wake.notified());
                        return Poll::Ready(Step::Continue);
                    }
                    if pending {
                        if let Poll::Ready(ready) = link.stream.poll_write_ready(cx) {
                            return Poll::Ready(match ready {
                                Ok(()) => {
                                    self.link.flush_locked(&mut self.link.lock());
                                    Step::Continue
                                }
                                Err(_) => Step::End,
                            });
                        }
                    }
                    if let Poll::Ready(ready) = link.stream.poll_read_ready(cx) {
                        return Poll::Ready(match ready {
                            Ok(()) => self.read(),
                            Err(_) => Step::End,
                        });
                    }
                    if let Some(timer) = self.upgrade_timer.as_mut() {
                        if timer.as_mut().poll(cx).is_ready() {
                            self.upgrade_timer = None;
                            return Poll::Ready(if matches!(self.mode, Mode::Upgrading(_)) {
                                self.fail(DisconnectReason::TransportError)
                            } else {
                                Step::Continue
                            });
                        }
                    }
                    Poll::Pending
                })
                .await
            };
            match step {
                Step::Continue => {}
                Step::Close => return self.close_socket().await,
                Step::End => return,
            }
        }
    }

    /// Reads what the socket has and handles every complete frame.
    ///
    /// A quiet connection holds no read buffer. While no frame is half read (nearly always),
    /// the bytes go into this thread's buffer, lent to the connection for the read: no buffer
    /// is allocated, split and freed per request. Only the start of a frame whose rest has not
    /// arrived stays with the connection, in a buffer of its own.
    fn read(&mut self) -> Step {
        let lent = self.read_buf.is_empty();
        if lent {
            self.read_buf = READ_BUF.with(|own| std::mem::take(&mut *own.borrow_mut()));
        }
        let step = match read_available(&self.link.0.stream, &mut self.read_buf) {
            Ok(0) => Step::End,
            Ok(_) => self.decode_all(),
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                Step::Continue
            }
            Err(_) => Step::End,
        };
        if self.read_buf.is_empty() {
            let buf = std::mem::take(&mut self.read_buf);
            if lent {
                // Back to the thread, its room kept for the next connection that reads.
                READ_BUF.with(|own| *own.borrow_mut() = buf);
            }
        } else if lent {
            // A partial frame: the connection keeps a copy of just that; the thread's buffer
            // stays the thread's.
            let rest = BytesMut::from(&self.read_buf[..]);
            let mut buf = std::mem::replace(&mut self.read_buf, rest);
            buf.clear();
            READ_BUF.with(|own| *own.borrow_mut() = buf);
        }
        step
    }

    fn decode_all(&mut self) -> Step {
        let turn = ReadTurn::start(&self.link);
        let step = self.decode_frames();
        drop(turn);
        self.link.flush_after_read();
        step
    }

    fn decode_frames(&mut self) -> Step {
        loop {
            match self.codec.decode(&mut self.read_buf) {
                Ok(Some(frame)) => match self.on_frame(frame) {
                    Step::Continue => {}
                    other => return other,
                },
                Ok(None) => return Step::Continue,
                Err(error) => {
                    tracing::debug!(%error, "engine.io websocket protocol error");
                    return self.fail(DisconnectReason::TransportError);
                }
            }
        }
    }

    fn on_frame(&mut self, frame: Frame) -> Step {
        match frame {
            Frame::Text(bytes) => match std::str::from_utf8(&bytes) {
                Ok(text) => self.on_text(text),
                Err(_) => self.fail(DisconnectReason::ParseError),
            },
            Frame::Binary(bytes) => self.on_binary(bytes.to_vec()),
            Frame::Continuation(item) => match self.on_fragment(item) {
                Err(step) => step,
                Ok(None) => Step::Continue,
                Ok(Some((true, data))) => self.on_binary(data),
                Ok(Some((false, data))) => match String::from_utf8(data) {
                    Ok(text) => self.on_text(&text),
                    Err(_) => self.fail(DisconnectReason::ParseError),
                },
            },
            Frame::Ping(data) => {
                self.write_raw(OP_PONG, &data);
                Step::Continue
            }
            Frame::Pong(_) => Step::Continue,
            // The client closes: answer with a close frame and end.
            Frame::Close(_) => Step::Close,
        }
    }

    /// Writes a control frame, in order with the session's writes.
    fn write_raw(&self, opcode: u8, payload: &[u8]) {
        let mut out = self.link.lock();
        if out.broken {
            return;
        }
        let was_idle = out.pending.is_empty();
        ws_frame::put_frame(&mut out.pending, opcode, payload);
        if was_idle {
            self.link.flush_locked(&mut out);
        }
    }

    fn on_text(&mut self, text: &str) -> Step {
        let packet = Packet::parse_text(text);
        match (&self.mode, packet) {
            (Mode::Active(session), Ok(packet)) => {
                session.receive(packet);
                Step::Continue
            }
            (Mode::Active(_), Err(_)) => self.fail(DisconnectReason::ParseError),
            (Mode::Upgrading(session), Ok(Packet::Ping(Some(probe)))) if probe == "probe" => {
                self.link.send(&[Packet::Pong(Some(probe))]);
                session.probed();
                Step::Continue
            }
            (Mode::Upgrading(session), Ok(Packet::Upgrade)) => {
                let session = Arc::clone(session);
                // The session writes what it queued for polling to the link before anything
                // newer, under its lock.
                if session.complete_upgrade() {
                    self.upgrade_timer = None;
                    self.mode = Mode::Active(session);
                    Step::Continue
                } else {
                    self.mode = Mode::Done;
                    Step::Close
                }
            }
            // Anything else during an upgrade cancels it; the polling session goes on.
            (Mode::Upgrading(_), _) => self.fail(DisconnectReason::TransportError),
            (Mode::Done, _) => Step::Continue,
        }
    }

    fn on_binary(&mut self, data: Vec<u8>) -> Step {
        match &self.mode {
            Mode::Active(session) => {
                session.receive(Packet::from_binary_frame(data));
                Step::Continue
            }
            Mode::Upgrading(_) => self.fail(DisconnectReason::TransportError),
            Mode::Done => Step::Continue,
        }
    }

    /// Adds a fragment; a whole message once the last one is in.
    #[allow(clippy::type_complexity)]
    fn on_fragment(&mut self, item: Item) -> Result<Option<(bool, Vec<u8>)>, Step> {
        let (first, bytes, last) = match item {
            Item::FirstText(bytes) => (Some(false), bytes, false),
            Item::FirstBinary(bytes) => (Some(true), bytes, false),
            Item::Continue(bytes) => (None, bytes, false),
            Item::Last(bytes) => (None, bytes, true),
        };
        match (first, self.partial.as_mut()) {
            (Some(binary), None) => self.partial = Some((binary, bytes.to_vec())),
            (None, Some((_, buffer))) => buffer.extend_from_slice(&bytes),
            _ => return Err(self.fail(DisconnectReason::TransportError)),
        }
        if self
            .partial
            .as_ref()
            .is_some_and(|(_, buffer)| buffer.len() > self.max_payload)
        {
            return Err(self.fail(DisconnectReason::TransportError));
        }
        Ok(if last { self.partial.take() } else { None })
    }

    /// Ends the session (if any) for `reason`; the connection then closes.
    fn fail(&mut self, reason: DisconnectReason) -> Step {
        match std::mem::replace(&mut self.mode, Mode::Done) {
            Mode::Active(session) => session.close(reason),
            Mode::Upgrading(session) => session.abort_upgrade(),
            Mode::Done => {}
        }
        Step::Close
    }

    /// Flushes what is pending, sends a normal close frame and shuts the socket down.
    async fn close_socket(&mut self) {
        let mut rest = {
            let mut out = self.link.lock();
            out.closing = true;
            if out.broken {
                return;
            }
            std::mem::take(&mut out.pending)
        };
        ws_frame::put_frame(&mut rest, OP_CLOSE, &ws_frame::close_payload(1000));
        let stream = &self.link.0.stream;
        let write_all = async {
            let mut written = 0;
            while written < rest.len() {
                stream.writable().await?;
                match stream.try_write(&rest[written..]) {
                    Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                    Ok(n) => written += n,
                    Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                    Err(error) => return Err(error),
                }
            }
            Ok::<(), io::Error>(())
        };
        // Whatever happens, `finish` then shuts the socket down.
        let _ = tokio::time::timeout(CLOSE_TIMEOUT, write_all).await;
    }

    /// The connection is over: the session it carried (or was upgrading) learns of it.
    fn finish(&mut self) {
        self.link.lock().broken = true;
        // The client sees the end of the stream now, even while something (a session handle
        // kept by the application) still holds the socket. Through a borrowed socket: the
        // stream is shared with the link, and tokio's shutdown needs `&mut`.
        let _ = socket2::SockRef::from(&self.link.0.stream).shutdown(std::net::Shutdown::Both);
        match std::mem::replace(&mut self.mode, Mode::Done) {
            Mode::Active(session) => session.close(DisconnectReason::TransportClose),
            Mode::Upgrading(session) => session.abort_upgrade(),
            Mode::Done => {}
        }
    }
}

/// Reads what the socket holds (up to [`READ_CHUNK`]) onto the end of `buf`, as `try_read_buf`
/// does, and when the read came back short of the room it had, tells tokio the socket is
/// drained, as tokio's own `AsyncRead` does on epoll (tokio-rs/tokio#5866): the kernel had
/// nothing more, and a later arrival is a new edge the reactor sees. `try_read_buf` keeps the
/// readiness until a read finds nothing, so a connection answering one request per wake-up
/// (every `time:sync`) made a second `read` only to be told `EAGAIN`: one system call in three
/// of a request's.
fn read_available(stream: &TcpStream, buf: &mut BytesMut) -> io::Result<usize> {
    use std::io::Read;
    let start = buf.len();
    // Zeroed, not uninitialised: a 4 KiB `memset`, tens of nanoseconds, and no `unsafe`.
    buf.resize(start + READ_CHUNK, 0);
    let mut got = 0;
    let result = stream.try_io(tokio::io::Interest::READABLE, || {
        let n = (&*socket2::SockRef::from(stream)).read(&mut buf[start..])?;
        got = n;
        if n > 0 && n < READ_CHUNK {
            // Clears the readiness (the data is in `got`, not lost).
            Err(io::ErrorKind::WouldBlock.into())
        } else {
            Ok(n)
        }
    });
    buf.truncate(start + got);
    match result {
        Err(error) if error.kind() == io::ErrorKind::WouldBlock && got > 0 => Ok(got),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::tests::{pair, runtime};
    use super::*;
    use std::time::Duration;

    /// No readiness for 50 ms.
    async fn quiet(stream: &TcpStream) -> bool {
        tokio::time::timeout(Duration::from_millis(50), stream.readable())
            .await
            .is_err()
    }

    #[test]
    fn a_short_read_leaves_the_socket_waiting_for_new_bytes_and_a_full_one_does_not() {
        use std::io::Write;
        let (server, mut client) = pair();
        runtime().block_on(async {
            let stream = TcpStream::from_std(server).unwrap();
            let mut buf = BytesMut::new();

            // Fewer bytes than the room given: all of them, and the socket counts as drained
            // (no second read to learn it), yet bytes sent later are seen.
            client.write_all(b"abc").unwrap();
            stream.readable().await.unwrap();
            assert_eq!(read_available(&stream, &mut buf).unwrap(), 3);
            assert!(quiet(&stream).await, "readable again with nothing sent");
            client.write_all(b"def").unwrap();
            stream.readable().await.unwrap();
            assert_eq!(read_available(&stream, &mut buf).unwrap(), 3);
            assert_eq!(&buf[..], b"abcdef");

            // A read that fills its room may have left more: still readable, and the rest read.
            buf.clear();
            let big = vec![b'x'; READ_CHUNK + 10];
            client.write_all(&big).unwrap();
            let mut got = 0;
            while got < big.len() {
                stream.readable().await.unwrap();
                match read_available(&stream, &mut buf) {
                    Ok(n) => got += n,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(e) => panic!("{e}"),
                }
            }
            assert_eq!(&buf[..], &big[..]);
            assert!(quiet(&stream).await);

            // The end of the stream reads as 0.
            client.shutdown(std::net::Shutdown::Write).unwrap();
            stream.readable().await.unwrap();
            assert_eq!(read_available(&stream, &mut buf).unwrap(), 0);
        });
    }
}
