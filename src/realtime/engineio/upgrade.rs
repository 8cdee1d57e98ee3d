//! WebSocket handshakes, taken over from actix-http's HTTP/1 dispatcher before actix-web sees
//! them (see [`super::listen`]): the request is checked like any engine request, answered
//! (`101`, or the protocol's error), and the TCP stream goes to the connection task with none
//! of the dispatcher's buffers. An upgrade to a path no engine is mounted at gets `404`.

use super::handler::{EngineHandler, RequestInfo, TransportKind};
use super::refusals::Refusing;
use super::server::{EngineIo, EngineQuery, RequestError};
use super::session::Shared;
use super::websocket::connection::{self, Start};
use actix_codec::Framed;
use actix_http::{h1, ws, HttpMessage, Request, StatusCode};
use bytes::BytesMut;
use std::io;
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// The engines that take WebSocket connections, by the path they are mounted at (the same
/// path as given to [`super::configure`] for polling).
#[derive(Clone, Default)]
pub struct WebSocketMounts {
    mounts: Vec<(String, Arc<Shared>)>,
}

impl WebSocketMounts {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an engine at `path` (e.g. `/socket.io/`).
    pub fn mount<H: EngineHandler>(mut self, path: &str, engine: &EngineIo<H>) -> Self {
        self.mounts.push((path.to_owned(), engine.shared()));
        self
    }

    fn find(&self, path: &str) -> Option<&Arc<Shared>> {
        self.mounts
            .iter()
            .find(|(mounted, _)| mounted == path)
            .map(|(_, shared)| shared)
    }
}

/// Answers one upgrade request; a connection it opens goes on in a task of its own.
pub(crate) async fn handle(
    mounts: &WebSocketMounts,
    req: Request,
    framed: Framed<Refusing<TcpStream>, h1::Codec>,
) {
    if let Err(error) = answer(mounts, req, framed).await {
        // The client went away during the handshake: nothing was opened.
        tracing::debug!(%error, "websocket handshake not completed");
    }
}

async fn answer(
    mounts: &WebSocketMounts,
    req: Request,
    framed: Framed<Refusing<TcpStream>, h1::Codec>,
) -> io::Result<()> {
    let parts = framed.into_parts();
    let (mut stream, read_buf) = (parts.io.into_inner(), parts.read_buf);
    // The dispatcher's write buffer (8 KiB) goes now; the read buffer unless it holds frames.
    drop(parts.write_buf);
    let read_buf = if read_buf.is_empty() {
        BytesMut::new()
    } else {
        read_buf
    };
    let Some(shared) = mounts.find(req.path()) else {
        return reject(
            &mut stream,
            StatusCode::NOT_FOUND,
            "text/plain",
            b"Not Found",
        )
        .await;
    };
    let start = match accept(shared, &req) {
        Ok(start) => start,
        Err(error) => {
            let body = error.body().to_string();
            return reject(
                &mut stream,
                error.status(),
                "application/json",
                body.as_bytes(),
            )
            .await;
        }
    };
    // Frames are coalesced per flush already (see `websocket`); Nagle would only hold a frame
    // back until the client's (possibly delayed) ACK of the previous one.
    stream.set_nodelay(true)?;
    stream.write_all(&switching_protocols(&req)).await?;
    // The connection gets a task of its own, sized to what it holds: the dispatcher's task (a
    // few KiB, with the request) ends here.
    let max_payload = shared.config.max_payload;
    drop(req);
    actix_web::rt::spawn(connection::run(stream, read_buf, start, max_payload));
    Ok(())
}

/// The checks of [`super::server`]'s route, for a request that asks for a WebSocket.
fn accept(shared: &Arc<Shared>, req: &Request) -> Result<Start, RequestError> {
    ws::verify_handshake(req.head()).map_err(|_| RequestError::BadRequest)?;
    let query = EngineQuery::parse(req.uri().query().unwrap_or_default())?;
    if query.transport != TransportKind::WebSocket {
        return Err(RequestError::BadRequest);
    }
    if !query.eio_ok {
        return Err(RequestError::UnsupportedProtocolVersion);
    }
    match query.sid {
        None if shared.config.allow_websocket_only => Ok(Start::New {
            shared: Arc::clone(shared),
            request: RequestInfo::detached(req.uri(), req.headers(), req.peer_addr()),
        }),
        None => Err(RequestError::BadRequest),
        Some(sid) => {
            let session = shared
                .get(&sid)
                .filter(|session| session.check_alive())
                .ok_or(RequestError::UnknownSid)?;
            if !shared.config.allow_upgrades {
                return Err(RequestError::BadRequest);
            }
            Ok(Start::Upgrade(session))
        }
    }
}

fn switching_protocols(req: &Request) -> Vec<u8> {
    // `verify_handshake` made sure the key is there.
    let accept = req
        .headers()
        .get(actix_http::header::SEC_WEBSOCKET_KEY)
        .map(|key| ws::hash_key(key.as_bytes()))
        .unwrap_or_default();
    let mut head = b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\
connection: upgrade\r\nsec-websocket-accept: "
        .to_vec();
    head.extend_from_slice(&accept);
    head.extend_from_slice(b"\r\n\r\n");
    head
}

async fn reject(
    stream: &mut TcpStream,
    status: StatusCode,
    content_type: &str,
    body: &[u8],
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or_default(),
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body).await?;
    stream.shutdown().await
}
