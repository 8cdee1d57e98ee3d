//! The HTTP long-polling transport: the handshake GET, the waiting GET, and the POST.

use super::handler::RequestInfo;
use super::packet::Packet;
use super::payload::{decode_payload, encode_payload};
use super::server::RequestError;
use super::session::poll::PollOutcome;
use super::session::{Session, SessionTransport, Shared};
use actix_web::http::header::{self, ContentType};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use std::sync::Arc;

/// A GET without sid: opens a session and answers with its `open` packet alone.
pub(crate) fn handshake(shared: &Arc<Shared>, request: RequestInfo) -> HttpResponse {
    let session = shared.create(SessionTransport::Polling, request);
    let response = payload_response(&[session.open_packet()]);
    session.announce();
    response
}

/// A GET with sid: answers with the queued packets, waiting for some if none is queued.
pub(crate) async fn poll(session: Arc<Session>) -> HttpResponse {
    match session.poll().await {
        PollOutcome::Payload(packets) => payload_response(&packets),
        PollOutcome::Closed => RequestError::UnknownSid.response(),
        PollOutcome::Overlap | PollOutcome::NotPolling => RequestError::BadRequest.response(),
    }
}

/// A POST with sid: decodes the payload and hands its packets to the session, in order.
pub(crate) async fn post(
    session: Arc<Session>,
    req: &HttpRequest,
    body: web::Payload,
) -> HttpResponse {
    if !session.begin_post() {
        return RequestError::BadRequest.response();
    }
    let _post = PostGuard(&session);
    // v4 payloads are text; the reference server rejects binary bodies and closes the session.
    let binary = req
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes() == b"application/octet-stream");
    if binary {
        session.close(super::DisconnectReason::TransportError);
        return RequestError::BadRequest.response();
    }
    let max_payload = session.config().max_payload;
    let bytes = match body.to_bytes_limited(max_payload).await {
        Ok(Ok(bytes)) => bytes,
        // Like the reference server: 413, and the session stays open.
        Err(_) => return HttpResponse::new(StatusCode::PAYLOAD_TOO_LARGE),
        Ok(Err(_)) => {
            session.close(super::DisconnectReason::TransportClose);
            return RequestError::BadRequest.response();
        }
    };
    let packets = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|text| decode_payload(text, max_payload).ok());
    let Some(packets) = packets else {
        session.close(super::DisconnectReason::ParseError);
        return RequestError::BadRequest.response();
    };
    for packet in packets {
        session.receive(packet);
    }
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body("ok")
}

/// Clears the session's "POST in progress" flag however the request ends.
struct PostGuard<'a>(&'a Session);

impl Drop for PostGuard<'_> {
    fn drop(&mut self) {
        self.0.end_post();
    }
}

fn payload_response(packets: &[Packet]) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=UTF-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(encode_payload(packets))
}
