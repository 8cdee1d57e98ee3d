//! The built React app at /, with client routes falling back to index.html.
//!
//! Two kinds of path never fall back: a source map (`*.map`) is not served even when one is on
//! disk (production builds make none, `build.sourcemap: false`; this covers a dist/ built another
//! way), and a missing file under /assets/ is a 404. Without that a chunk an old page still asks
//! for after a deploy would come back as index.html with 200, and the app could not tell a stale
//! chunk from a bad one (its retry and reload, frontend/src/app/chunkLoad.ts, rely on the failure).

use crate::http::edge::error::ApiError;
use actix_files::{Files, NamedFile};
use actix_web::dev::{fn_service, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::{web, HttpResponse, ResponseError};
use std::path::{Path, PathBuf};

const NOT_BUILT: &str =
    "The app is not built yet: run `make build-frontend` (npm run build in frontend/).";

pub fn configure(cfg: &mut web::ServiceConfig, static_dir: &Path) {
    let index = static_dir.join("index.html");
    let fallback = fn_service(move |req: ServiceRequest| {
        let index = index.clone();
        async move {
            let (req, _) = req.into_parts();
            let res = fallback(&req, &index).await;
            Ok(ServiceResponse::new(req, res))
        }
    });
    if static_dir.is_dir() {
        cfg.service(
            Files::new("/", static_dir)
                .index_file("index.html")
                .path_filter(|path, _| !is_source_map(path))
                .default_handler(fallback),
        );
    } else {
        cfg.default_service(fallback);
    }
}

/// Where the app is not built, say so once at start rather than on every request.
pub fn warn_if_missing(static_dir: &Path) {
    if !static_dir.join("index.html").is_file() {
        tracing::warn!(static_dir = %static_dir.display(), "{NOT_BUILT}");
    }
}

async fn fallback(req: &actix_web::HttpRequest, index: &PathBuf) -> HttpResponse {
    let path = req.path();
    // Unknown API paths stay errors in the envelope; everything else is a client route.
    if path.starts_with("/api/") || path.starts_with("/sandbox/") {
        return ApiError::not_found("接口不存在", "No such endpoint").error_response();
    }
    // The app's pages are only ever read.
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .finish();
    }
    if path.starts_with("/assets/") || is_source_map(Path::new(path)) {
        return HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("Not found");
    }
    match NamedFile::open_async(index).await {
        Ok(file) => file.into_response(req),
        Err(_) => HttpResponse::ServiceUnavailable()
            .content_type("text/plain; charset=utf-8")
            .body(NOT_BUILT),
    }
}

fn is_source_map(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("map"))
}
