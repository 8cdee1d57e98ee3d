//! The WebSocket transport: one actor per connection, either opening a new session or
//! upgrading a polling one (probe `2probe`/`3probe`, then `5`).

use super::handler::{DisconnectReason, RequestInfo};
use super::packet::Packet;
use super::session::{Session, SessionTransport, Shared, WsCommand};
use actix::{Actor, ActorContext, AsyncContext, Handler, StreamHandler};
use actix_web::{web, HttpRequest, HttpResponse};
use actix_web_actors::ws;
use std::sync::Arc;

/// Starts a WebSocket connection that opens a new session.
pub(crate) fn start_new(
    shared: Arc<Shared>,
    request: RequestInfo,
    req: &HttpRequest,
    body: web::Payload,
) -> actix_web::Result<HttpResponse> {
    let max = shared.config.max_payload;
    let conn = WsConnection {
        mode: Mode::New { shared, request },
        partial: None,
        max_payload: max,
    };
    ws::WsResponseBuilder::new(conn, req, body)
        .frame_size(max)
        .start()
}

/// Starts a WebSocket connection that tries to upgrade `session`. A session that cannot be
/// upgraded (already upgraded or upgrading) gets a WebSocket that closes at once.
pub(crate) fn start_upgrade(
    session: Arc<Session>,
    req: &HttpRequest,
    body: web::Payload,
) -> actix_web::Result<HttpResponse> {
    let max = session.config().max_payload;
    let conn = WsConnection {
        mode: Mode::Upgrading(session),
        partial: None,
        max_payload: max,
    };
    ws::WsResponseBuilder::new(conn, req, body)
        .frame_size(max)
        .start()
}

enum Mode {
    /// Not started yet: the session is created when the actor starts.
    New {
        shared: Arc<Shared>,
        request: RequestInfo,
    },
    /// Probing an existing polling session.
    Upgrading(Arc<Session>),
    /// Carrying the session.
    Active(Arc<Session>),
    Done,
}

struct WsConnection {
    mode: Mode,
    /// A fragmented message being reassembled: (is binary, bytes so far).
    partial: Option<(bool, Vec<u8>)>,
    max_payload: usize,
}

impl WsConnection {
    fn write(ctx: &mut ws::WebsocketContext<Self>, packets: Vec<Packet>) {
        for packet in packets {
            match packet {
                Packet::Binary(data) => ctx.binary(data),
                other => {
                    if let Some(text) = other.encode_text() {
                        ctx.text(text);
                    }
                }
            }
        }
    }

    fn shut(&mut self, ctx: &mut ws::WebsocketContext<Self>) {
        self.mode = Mode::Done;
        ctx.close(Some(ws::CloseCode::Normal.into()));
        ctx.stop();
    }

    /// Ends the session (if any) for `reason` and closes the connection.
    fn fail(&mut self, reason: DisconnectReason, ctx: &mut ws::WebsocketContext<Self>) {
        match std::mem::replace(&mut self.mode, Mode::Done) {
            Mode::Active(session) => session.close(reason),
            Mode::Upgrading(session) => session.abort_upgrade(),
            Mode::New { .. } | Mode::Done => {}
        }
        self.shut(ctx);
    }

    fn on_text(&mut self, text: &str, ctx: &mut ws::WebsocketContext<Self>) {
        let packet = Packet::parse_text(text);
        match (&self.mode, packet) {
            (Mode::Active(session), Ok(packet)) => {
                let session = Arc::clone(session);
                session.receive(packet);
            }
            (Mode::Active(_), Err(_)) => self.fail(DisconnectReason::ParseError, ctx),
            (Mode::Upgrading(session), Ok(Packet::Ping(Some(probe)))) if probe == "probe" => {
                let session = Arc::clone(session);
                Self::write(ctx, vec![Packet::Pong(Some(probe))]);
                session.probed();
            }
            (Mode::Upgrading(session), Ok(Packet::Upgrade)) => {
                let session = Arc::clone(session);
                match session.complete_upgrade() {
                    Some(queued) => {
                        Self::write(ctx, queued);
                        self.mode = Mode::Active(session);
                    }
                    None => self.shut(ctx),
                }
            }
            // Anything else during an upgrade cancels it; the polling session goes on.
            (Mode::Upgrading(_), _) => self.fail(DisconnectReason::TransportError, ctx),
            (Mode::New { .. } | Mode::Done, _) => {}
        }
    }

    fn on_binary(&mut self, data: Vec<u8>, ctx: &mut ws::WebsocketContext<Self>) {
        match &self.mode {
            Mode::Active(session) => {
                let session = Arc::clone(session);
                session.receive(Packet::from_binary_frame(data));
            }
            Mode::Upgrading(_) => self.fail(DisconnectReason::TransportError, ctx),
            Mode::New { .. } | Mode::Done => {}
        }
    }

    fn on_fragment(
        &mut self,
        item: actix_http::ws::Item,
        ctx: &mut ws::WebsocketContext<Self>,
    ) -> Option<(bool, Vec<u8>)> {
        let (first, bytes, last) = match item {
            actix_http::ws::Item::FirstText(bytes) => (Some(false), bytes, false),
            actix_http::ws::Item::FirstBinary(bytes) => (Some(true), bytes, false),
            actix_http::ws::Item::Continue(bytes) => (None, bytes, false),
            actix_http::ws::Item::Last(bytes) => (None, bytes, true),
        };
        match (first, self.partial.as_mut()) {
            (Some(binary), None) => self.partial = Some((binary, bytes.to_vec())),
            (None, Some((_, buffer))) => buffer.extend_from_slice(&bytes),
            _ => {
                self.fail(DisconnectReason::TransportError, ctx);
                return None;
            }
        }
        if self
            .partial
            .as_ref()
            .is_some_and(|(_, buffer)| buffer.len() > self.max_payload)
        {
            self.fail(DisconnectReason::TransportError, ctx);
            return None;
        }
        if last {
            self.partial.take()
        } else {
            None
        }
    }
}

impl Actor for WsConnection {
    type Context = ws::WebsocketContext<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let address = ctx.address().recipient();
        match std::mem::replace(&mut self.mode, Mode::Done) {
            Mode::New { shared, request } => {
                let session = shared.create(SessionTransport::WebSocket(address), request);
                // The open packet is the first frame: everything else goes through the mailbox.
                Self::write(ctx, vec![session.open_packet()]);
                self.mode = Mode::Active(Arc::clone(&session));
                session.announce();
            }
            Mode::Upgrading(session) => {
                if session.attach_upgrade(address) {
                    let timeout = session.config().upgrade_timeout;
                    self.mode = Mode::Upgrading(session);
                    ctx.run_later(timeout, |conn, ctx| {
                        if matches!(conn.mode, Mode::Upgrading(_)) {
                            conn.fail(DisconnectReason::TransportError, ctx);
                        }
                    });
                } else {
                    self.shut(ctx);
                }
            }
            Mode::Active(_) | Mode::Done => self.shut(ctx),
        }
    }

    fn stopped(&mut self, _ctx: &mut Self::Context) {
        match std::mem::replace(&mut self.mode, Mode::Done) {
            Mode::Active(session) => session.close(DisconnectReason::TransportClose),
            Mode::Upgrading(session) => session.abort_upgrade(),
            Mode::New { .. } | Mode::Done => {}
        }
    }
}

impl StreamHandler<Result<ws::Message, ws::ProtocolError>> for WsConnection {
    fn handle(&mut self, item: Result<ws::Message, ws::ProtocolError>, ctx: &mut Self::Context) {
        let message = match item {
            Ok(message) => message,
            Err(error) => {
                tracing::debug!(%error, "engine.io websocket protocol error");
                self.fail(DisconnectReason::TransportError, ctx);
                return;
            }
        };
        match message {
            ws::Message::Text(text) => self.on_text(&text, ctx),
            ws::Message::Binary(data) => self.on_binary(data.to_vec(), ctx),
            ws::Message::Continuation(item) => match self.on_fragment(item, ctx) {
                Some((true, data)) => self.on_binary(data, ctx),
                Some((false, data)) => match String::from_utf8(data) {
                    Ok(text) => self.on_text(&text, ctx),
                    Err(_) => self.fail(DisconnectReason::ParseError, ctx),
                },
                None => {}
            },
            ws::Message::Ping(data) => ctx.pong(&data),
            ws::Message::Close(reason) => {
                ctx.close(reason);
                ctx.stop();
            }
            ws::Message::Pong(_) | ws::Message::Nop => {}
        }
    }
}

impl Handler<WsCommand> for WsConnection {
    type Result = ();

    fn handle(&mut self, command: WsCommand, ctx: &mut Self::Context) {
        match command {
            WsCommand::Packets(packets) => Self::write(ctx, packets),
            WsCommand::Close => self.shut(ctx),
        }
    }
}
