//! The peer of `make bench-http` (`tests/bench/http/run.sh`): a bare actix-web handler that
//! answers, for each path the benchmark asks for, the very bytes `pizza-order serve` answered
//! it once, with the same content type. No middleware, no database, no log, no metrics: what
//! actix-web and the kernel cost to answer these bodies on this machine, so that ours over it
//! says how much our own path (middleware, handlers, serialising) costs.
//!
//!     cargo build --release --example bench_bare_http
//!     target/release/examples/bench_bare_http <port> <manifest>
//!
//! The manifest is what the script wrote while capturing: one route a line,
//! `<path and query>\t<content type>\t<body file>`. Workers: `BARE_WORKERS` (default 1, like
//! the benchmark's `pizza-order serve`). Prints `listening on http://127.0.0.1:<port>/` once it
//! listens.

use actix_web::http::header::{HeaderValue, CONTENT_TYPE};
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use bytes::Bytes;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// The product's allocator, so that the ratio measures our code and not the allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Captured {
    content_type: HeaderValue,
    body: Bytes,
}

type Routes = Arc<HashMap<String, Captured>>;

fn load(manifest: &str) -> anyhow::Result<HashMap<String, Captured>> {
    let text = std::fs::read_to_string(manifest)?;
    let mut routes = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split('\t');
        let (Some(path), Some(content_type), Some(file)) =
            (fields.next(), fields.next(), fields.next())
        else {
            anyhow::bail!("manifest line {line:?}: want path, content type and file");
        };
        let body = std::fs::read(file)?;
        routes.insert(
            path.to_string(),
            Captured {
                content_type: HeaderValue::from_str(content_type)?,
                body: Bytes::from(body),
            },
        );
    }
    anyhow::ensure!(!routes.is_empty(), "the manifest {manifest} lists no route");
    Ok(routes)
}

/// One lookup by path and query (the captured bodies are keyed so), then the bytes.
async fn answer(req: HttpRequest, routes: web::Data<Routes>) -> HttpResponse {
    let key = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.path(), |pq| pq.as_str());
    match routes.get(key) {
        Some(captured) => HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, captured.content_type.clone()))
            .body(captured.body.clone()),
        None => HttpResponse::NotFound().finish(),
    }
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(port), Some(manifest)) = (args.next(), args.next()) else {
        anyhow::bail!("usage: bench_bare_http <port> <manifest>");
    };
    let port: u16 = port.parse()?;
    let routes: Routes = Arc::new(load(&manifest)?);
    let workers = std::env::var("BARE_WORKERS")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1usize);
    actix_web::rt::System::new().block_on(async move {
        let data = web::Data::new(routes);
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .default_service(web::to(answer))
        })
        .workers(workers)
        .bind(("127.0.0.1", port))?
        .run();
        println!("listening on http://127.0.0.1:{port}/");
        std::io::stdout().flush()?;
        server.await?;
        Ok(())
    })
}
