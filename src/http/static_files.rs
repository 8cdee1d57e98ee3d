//! The built React app at /, with client routes falling back to index.html.

use super::error::ApiError;
use actix_files::{Files, NamedFile};
use actix_web::dev::{fn_service, ServiceRequest, ServiceResponse};
use actix_web::{HttpResponse, ResponseError};
use std::path::{Path, PathBuf};

pub fn service(static_dir: &Path) -> Files {
    let index: PathBuf = static_dir.join("index.html");
    Files::new("/", static_dir)
        .index_file("index.html")
        .default_handler(fn_service(move |req: ServiceRequest| {
            let index = index.clone();
            async move {
                let (req, _) = req.into_parts();
                let path = req.path();
                // Unknown API paths stay errors in the envelope; everything else is a client route.
                if path.starts_with("/api/") || path.starts_with("/sandbox/") {
                    let res = ApiError::not_found("接口不存在", "No such endpoint").error_response();
                    return Ok(ServiceResponse::new(req, res));
                }
                let res = match NamedFile::open_async(&index).await {
                    Ok(file) => file.into_response(&req),
                    Err(_) => HttpResponse::ServiceUnavailable()
                        .content_type("text/plain; charset=utf-8")
                        .body("The app is not built yet: run `make build` (npm run build in frontend/)."),
                };
                Ok(ServiceResponse::new(req, res))
            }
        }))
}
