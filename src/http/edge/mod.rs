//! The edge every request passes, API or not: its language and id in scope for the code that
//! serves it ([`crate::http::edge::context`]), the API's channel checked, and on the way out its access
//! line and metrics ([`crate::http::edge::request_log`]), its id and the security headers
//! ([`crate::http::edge::security_headers`]).
//!
//! One hand-written middleware rather than one `from_fn` per concern: each `from_fn` layer
//! boxes the rest of the request's future and moves it to the heap, and four of them (language,
//! request log, security headers, the API's context) were a fifth of what the smallest request
//! costs us above a bare actix-web handler (docs/benchmarks.md). Here the request's future is
//! one concrete type, polled in place.

pub mod access_line;
pub mod access_log;
pub mod client_ip;
pub mod compress;
pub mod context;
pub mod envelope;
pub mod error;
pub mod extractor_errors;
pub mod head_limits;
pub mod idempotency;
pub mod openapi_answers;
pub mod openapi_shared;
pub mod params;
pub mod reply_cache;
pub mod request_log;
pub mod security_headers;
pub mod session;
pub mod staff_session;

use crate::http::edge::error::ApiError;
use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{forward_ready, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::ResponseError;
use actors::domain::channel::Channel;
use context::{RequestScope, SCOPE};
use request_log::{RequestLog, Started};
use std::future::{ready, Future, Ready};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::task::futures::TaskLocalFuture;

/// The middleware, built once per worker from the settings shared by all.
#[derive(Clone)]
pub struct Edge {
    log: Arc<RequestLog>,
}

impl Edge {
    pub fn new(log: Arc<RequestLog>) -> Edge {
        Edge { log }
    }
}

impl<S, B> Transform<S, ServiceRequest> for Edge
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = actix_web::Error;
    type Transform = EdgeService<S>;
    type InitError = ();
    type Future = Ready<Result<EdgeService<S>, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(EdgeService {
            service,
            log: self.log.clone(),
        }))
    }
}

pub struct EdgeService<S> {
    service: S,
    log: Arc<RequestLog>,
}

/// Whether a path is the API's, where the channel header is checked and `Ctx` is set.
fn is_api(path: &str) -> bool {
    path.strip_prefix("/api/v1")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

impl<S, B> Service<ServiceRequest> for EdgeService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = actix_web::Error;
    type Future = EdgeFuture<S::Future, B>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let started = Started::now(&req);
        let headers = req.headers();
        let mut scope = RequestScope {
            lang: context::accept_language(headers),
            id: started.id,
            channel: Channel::Web,
        };
        let facts = security_headers::Facts::of(req.request());
        let answer = if let Some(refusal) = head_limits::check(&req) {
            // Nothing else reads a head over the limits; the answer is in its language.
            Some(SCOPE.sync_scope(scope, || {
                ServiceResponse::new(req.request().clone(), refusal.error_response())
            }))
        } else if is_api(req.path()) {
            match context::channel(headers) {
                Some(channel) => {
                    scope.channel = channel;
                    None
                }
                // Refused before it reaches a handler, in the request's language.
                None => Some(SCOPE.sync_scope(scope, || {
                    let res = ApiError::UnknownChannel.error_response();
                    ServiceResponse::new(req.request().clone(), res)
                })),
            }
        } else {
            None
        };
        let state = match answer {
            None => State::Serving {
                // The service's own synchronous part runs in the scope too.
                fut: SCOPE.scope(scope, SCOPE.sync_scope(scope, || self.service.call(req))),
            },
            Some(res) => State::Refused { res: Some(res) },
        };
        EdgeFuture {
            state,
            after: Some(After {
                started,
                facts,
                log: self.log.clone(),
            }),
            _body: std::marker::PhantomData,
        }
    }
}

/// What the way out needs.
struct After {
    started: Started,
    facts: security_headers::Facts,
    log: Arc<RequestLog>,
}

impl After {
    fn finish<B>(
        self,
        mut result: Result<ServiceResponse<B>, actix_web::Error>,
    ) -> Result<ServiceResponse<B>, actix_web::Error> {
        request_log::finish(&self.log, &self.started, &mut result);
        if let Ok(res) = &mut result {
            security_headers::apply(&self.facts, res.headers_mut());
        }
        result
    }
}

pin_project_lite::pin_project! {
    #[project = StateProj]
    enum State<F> {
        Serving { #[pin] fut: TaskLocalFuture<RequestScope, F> },
        Refused { res: Option<ServiceResponse<BoxBody>> },
    }
}

pin_project_lite::pin_project! {
    pub struct EdgeFuture<F, B> {
        #[pin]
        state: State<F>,
        after: Option<After>,
        _body: std::marker::PhantomData<B>,
    }
}

impl<F, B> Future for EdgeFuture<F, B>
where
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
    B: MessageBody,
{
    type Output = Result<ServiceResponse<EitherBody<B>>, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = match this.state.project() {
            StateProj::Serving { fut } => match fut.poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(result) => result.map(ServiceResponse::map_into_left_body),
            },
            StateProj::Refused { res } => res
                .take()
                .map(ServiceResponse::map_into_right_body)
                .ok_or_else(polled_again),
        };
        // Once answered, `after` is gone: a future polled again has nothing left to finish.
        Poll::Ready(match this.after.take() {
            Some(after) => after.finish(result),
            None => result.and_then(|_| Err(polled_again())),
        })
    }
}

fn polled_again() -> actix_web::Error {
    actix_web::error::ErrorInternalServerError("the edge's answer was polled after it was given")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_paths_are_the_api_scope_and_nothing_that_only_starts_like_it() {
        for (path, api) in [
            ("/api/v1", true),
            ("/api/v1/", true),
            ("/api/v1/system/time", true),
            ("/api/v10/x", false),
            ("/api/v1x", false),
            ("/api-docs/", false),
            ("/", false),
            ("/menu", false),
        ] {
            assert_eq!(is_api(path), api, "{path}");
        }
    }
}
