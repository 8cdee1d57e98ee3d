//! The HTTP server for an actix-web app with engines mounted: actix-web's own HTTP/1 service
//! (what `HttpServer` builds, with its defaults), plus an upgrade service that takes WebSocket
//! handshakes to the engines' paths out of the dispatcher ([`super::upgrade`]).
//!
//! Why not `HttpServer` and a WebSocket actor: after an upgrade the dispatcher keeps its 8 KiB
//! read and write buffers and the actor its mailbox and context for as long as the socket lives,
//! more than 30 KiB for a connection that mostly waits. Here an idle WebSocket costs its
//! session and a few hundred bytes of task.

use super::refusals::{Refusing, RenderRefusal};
use super::upgrade::{self, WebSocketMounts};
use actix_http::{body::MessageBody, HttpService, Protocol, Request, Response};
use actix_server::Server;
use actix_service::{
    fn_service, map_config, IntoServiceFactory, ServiceFactory, ServiceFactoryExt,
};
use actix_web::dev::AppConfig;
use std::fmt;
use std::net::TcpListener;

/// Server settings (those of actix-web's `HttpServer` this project uses).
#[derive(Debug, Clone)]
pub struct ListenOptions {
    pub workers: usize,
    /// Seconds the server waits for connections to finish on shutdown.
    pub shutdown_timeout: u64,
    /// The listen backlog.
    pub backlog: u32,
    /// Connections each worker holds at most (more wait in the backlog).
    pub max_connections_per_worker: usize,
    /// What replaces the bare 400 or 431 the HTTP/1 parser writes for a head it cannot read
    /// ([`super::refusals`]); None: the parser's answer goes out as it is.
    pub parser_refusals: Option<RenderRefusal>,
}

impl Default for ListenOptions {
    fn default() -> Self {
        ListenOptions {
            workers: 1,
            shutdown_timeout: 5,
            backlog: 2048,
            max_connections_per_worker: 25_000,
            parser_refusals: None,
        }
    }
}

/// Serves the app built by `factory` on `listener` (one app per worker, as `HttpServer` does),
/// WebSocket upgrades to `mounts` going to the engines. The returned server must be awaited or
/// spawned.
pub fn serve<F, I, S, B>(
    listener: TcpListener,
    mounts: WebSocketMounts,
    options: &ListenOptions,
    factory: F,
) -> std::io::Result<Server>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig> + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: fmt::Debug,
    S::Response: Into<Response<B>> + 'static,
    <S::Service as actix_service::Service<Request>>::Future: 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    let addr = listener.local_addr()?;
    let host = addr.to_string();
    let refusals = options.parser_refusals.clone();
    Ok(Server::build()
        .workers(options.workers.max(1))
        .backlog(options.backlog)
        .max_concurrent_connections(options.max_connections_per_worker)
        .shutdown_timeout(options.shutdown_timeout)
        .listen(format!("pizza-http-{addr}"), listener, move || {
            let mounts = mounts.clone();
            let host = host.clone();
            let refusals = refusals.clone();
            let app = factory()
                .into_factory()
                .map_err(|err| err.into().error_response());
            let http = HttpService::build()
                .client_disconnect_timeout(std::time::Duration::from_secs(1))
                .local_addr(addr)
                .upgrade(fn_service(move |(req, framed)| {
                    let mounts = mounts.clone();
                    async move {
                        upgrade::handle(&mounts, req, framed).await;
                        Ok::<(), actix_web::Error>(())
                    }
                }))
                // The same AppConfig as `HttpServer` gives (host: the listen address). Its
                // constructor is crate-private; this is the hook actix-web keeps for its tests.
                .finish(map_config(app, move |()| {
                    AppConfig::__priv_test_new(false, host.clone(), addr)
                }));
            // What `HttpService::tcp` does, with the stream wrapped on the way in.
            fn_service(move |io: tokio::net::TcpStream| {
                let refusals = refusals.clone();
                async move {
                    let peer = io.peer_addr().ok();
                    Ok::<_, actix_http::error::DispatchError>((
                        Refusing::new(io, refusals),
                        Protocol::Http1,
                        peer,
                    ))
                }
            })
            .and_then(http)
        })?
        .run())
}
