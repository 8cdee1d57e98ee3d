//! Malformed bodies, queries and paths answer the envelope too, never actix's plain text.

use super::error::ApiError;
use actix_web::web;

pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(256 * 1024)
        .error_handler(|err, _req| {
            let detail = err.to_string();
            ApiError::bad_input(
                format!("请求内容格式不正确：{detail}"),
                format!("The request body is not valid: {detail}"),
            )
            .into()
        })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        let detail = err.to_string();
        ApiError::bad_input(
            format!("请求参数不正确：{detail}"),
            format!("The query parameters are not valid: {detail}"),
        )
        .into()
    })
}

pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, _req| {
        let detail = err.to_string();
        ApiError::bad_input(
            format!("请求路径不正确：{detail}"),
            format!("The request path is not valid: {detail}"),
        )
        .into()
    })
}
