//! What every operation of the OpenAPI document shares, added here once rather than on each
//! handler: who may call it (three bearer tokens), the headers every call reads, and the error
//! answers, one reusable response per status in the envelope. The handlers' annotations name
//! their own success body and the error statuses only they answer; a bare error status there
//! (`(status = 404)`) is completed with the shared response of that status.

use crate::http::edge::openapi_answers;
use serde_json::{json, Map, Value};

/// The scope of every API path; the document lists full paths so the health paths, which live
/// outside it, can sit beside them.
pub const API_PREFIX: &str = "/api/v1";

/// Who may call an operation, by the extractor its handler takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No token is read.
    Public,
    /// A customer's token (`AuthUser`): none is 401, an ended one 407.
    User,
    /// A customer's token or a visitor's `X-Cart-Token` (`CartOwner`); a token sent must be live.
    UserOrVisitor,
    /// The owner's token or the order's view token; neither is 401 (a dead token is ignored).
    Viewer,
    /// A store tablet's staff token (`StaffAuth`).
    Staff,
    /// The chain's operations token, `[ordering] ops_token` (off, 404, when unset).
    Ops,
}

/// The access rule of an operation, by its path inside the API scope. A new protected path
/// must be listed here: `tests/api/openapi.rs` calls every operation without a token and
/// fails when one answers 401 while the document does not say so.
pub fn access(method: &str, path: &str) -> Access {
    let under = |prefix: &str| path == prefix || path.starts_with(&format!("{prefix}/"));
    match path {
        "/tablet/login" => Access::Public,
        _ if under("/tablet") => Access::Staff,
        _ if under("/chain") => Access::Ops,
        _ if under("/cart") => Access::UserOrVisitor,
        "/orders/reservation" | "/orders/scan" => Access::UserOrVisitor,
        "/orders/{orderNo}" if method == "get" => Access::Viewer,
        "/orders" => Access::User,
        _ if path.starts_with("/orders/{orderNo}/") => Access::User,
        _ if under("/payments/notify") => Access::Public,
        _ if under("/payments") => Access::User,
        _ if under("/me") || under("/addresses") => Access::User,
        "/members/agreement" | "/members/levels" | "/points/deduction-rule" => Access::Public,
        _ if under("/members") || under("/points") => Access::User,
        // The offers are for everyone (a token only says what its holder collected).
        "/coupons/offers" => Access::Viewer,
        _ if under("/coupons") => Access::User,
        "/auth/logout" | "/auth/password/change" => Access::User,
        _ => Access::Public,
    }
}

/// Operations that read a visitor's cart token besides the cart's own: logging in merges it.
fn reads_cart_token(path: &str) -> bool {
    matches!(
        path,
        "/auth/register"
            | "/auth/login"
            | "/auth/login/sms"
            | "/orders/reservation"
            | "/orders/scan"
    ) || path == "/cart"
        || path.starts_with("/cart/")
}

/// Store, product, city, order and payment codes (`params::code`).
const CODE_PATTERN: &str = "^[A-Za-z0-9_-]{1,32}$";

/// The shared error responses, by status.
const SHARED: [(&str, &str); 9] = [
    ("400", "BadRequest"),
    ("413", "PayloadTooLarge"),
    ("401", "Unauthorized"),
    ("403", "Forbidden"),
    ("404", "NotFound"),
    ("409", "Conflict"),
    ("429", "TooManyRequests"),
    ("502", "RefundFailed"),
    ("503", "Unavailable"),
];

/// The envelope of an error: `errCode` one of `codes`, `data` as `data`.
fn error_envelope(codes: &[&str], data: Value) -> Value {
    json!({
        "type": "object",
        "required": ["errCode", "errMsg", "data"],
        "properties": {
            "errCode": {"type": "string", "enum": codes},
            "errMsg": {"type": "string", "description": "In the request's language (Accept-Language)."},
            "data": data,
        }
    })
}

fn json_response(description: &str, schema: Value) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": schema}}})
}

fn components() -> Value {
    let nothing = json!({"type": "null"});
    let fields = json!({"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/FieldError"}});
    let mut too_many = json_response(
        "Too frequent (errCode 429); data says how long to wait when the limit has a window end, \
         also sent as Retry-After.",
        error_envelope(
            &["429"],
            json!({"oneOf": [nothing, {
                "type": "object",
                "required": ["retryAfterSeconds"],
                "properties": {"retryAfterSeconds": {"type": "integer", "minimum": 0}}
            }]}),
        ),
    );
    too_many["headers"] = json!({"Retry-After": {
        "description": "Seconds to wait, when data has retryAfterSeconds.",
        "schema": {"type": "string"}
    }});
    json!({
        "schemas": {
            "FieldError": {
                "type": "object",
                "required": ["field", "message"],
                "properties": {
                    "field": {"type": "string", "description": "The request field, e.g. cellPhone."},
                    "message": {"type": "string"}
                }
            }
        },
        "responses": {
            "BadRequest": json_response(
                "Bad input: errCode 400 (data lists every field error of a form at once, else \
                 null; also an unknown X-Channel-Id or a body that does not parse), 400233 \
                 illegal request, -20 the cart cannot be checked out (empty, no valid item), -5 outside the delivery \
                 area, 02 coordinates a store lookup cannot use, -8 the chosen promotion cannot \
                 save anything on this cart (the reason in errMsg, data the cart unchanged).",
                error_envelope(
                    &["400", "400233", "-20", "-5", "02", "-8"],
                    json!({"oneOf": [nothing, fields, {"$ref": "#/components/schemas/CartDto"}]}),
                ),
            ),
            "PayloadTooLarge": json_response(
                "errCode 413: the body is over the size limit; nothing was read.",
                error_envelope(&["413"], nothing.clone()),
            ),
            "Unauthorized": json_response(
                "errCode 401: no token (未登录, Not logged in); errCode 407: the token has expired, was logged \
                 out or its account closed (登录过期!). Both with HTTP 401.",
                error_envelope(&["401", "407"], nothing.clone()),
            ),
            "Forbidden": json_response(
                "errCode 403: the token may not do this (another store's order, a wrong ops token).",
                error_envelope(&["403"], nothing.clone()),
            ),
            "NotFound": json_response(
                "errCode 404: no such thing (or the feature is off); errCode 02: no store found.",
                error_envelope(&["404", "02"], nothing.clone()),
            ),
            "Conflict": json_response(
                "errCode 409: the state changed or the request repeats another (try again or \
                 reload); -6 the amounts changed and -7 items sold out, both with the fresh cart.",
                error_envelope(&["409", "-6", "-7"], json!({"oneOf": [nothing, {"$ref": "#/components/schemas/CartDto"}]})),
            ),
            "TooManyRequests": too_many,
            "RefundFailed": json_response(
                "errCode 01 (退券失败，请联系客服): the provider refused the refund; data is for the alert.",
                error_envelope(&["01"], json!({
                    "type": "object",
                    "required": ["content", "storeTel"],
                    "properties": {"content": {"type": "string"}, "storeTel": {"type": "string"}}
                })),
            ),
            "Unavailable": json_response(
                "errCode 503: a provider (maps, SMS, payment) does not answer; try again later.",
                error_envelope(&["503"], nothing),
            ),
        },
        "parameters": {
            "AcceptLanguage": {
                "name": "Accept-Language", "in": "header", "required": false,
                "description": "zh (the default) or en: the language of names and messages.",
                "schema": {"type": "string", "examples": ["en", "zh-CN"]}
            },
            "ChannelId": {
                "name": "X-Channel-Id", "in": "header", "required": false,
                "description": "1 wap, 2 web (the default), 3 android, 4 ios, 5 wechat, 9 alipay, \
                    30, 31, 37, 46; anything else is refused with 400.",
                "schema": {"type": "string", "enum": ["1", "2", "3", "4", "5", "9", "30", "31", "37", "46"]}
            },
            "CartToken": {
                "name": "X-Cart-Token", "in": "header", "required": false,
                "description": "A visitor's cart, as issued by the first cart call; anything \
                    else is ignored (a new cart is issued).",
                "schema": {"type": "string", "pattern": "^c_[0-9a-f]{32}$"}
            }
        },
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer",
                "description": "A customer's session token, from login or registration."},
            "staff": {"type": "http", "scheme": "bearer",
                "description": "A store tablet's staff token, from POST /tablet/login."},
            "ops": {"type": "http", "scheme": "bearer",
                "description": "The chain's operations token, [ordering] ops_token."}
        }
    })
}

/// Completes the document the annotations built: full paths, shared components, and on every
/// API operation its access rule, headers and error responses.
pub fn complete(doc: &mut Value, health: &Value) {
    let shared = components();
    for (section, entries) in shared.as_object().into_iter().flatten() {
        for (name, value) in entries.as_object().into_iter().flatten() {
            doc["components"][section][name] = value.clone();
        }
    }
    let paths = match doc["paths"].take() {
        Value::Object(paths) => paths,
        _ => Map::new(),
    };
    let schemas = doc["components"]["schemas"].clone();
    let mut full = Map::new();
    for (path, mut item) in paths {
        if let Some(ops) = item.as_object_mut() {
            for (method, op) in ops {
                complete_operation(method, &path, op, &schemas);
            }
        }
        full.insert(format!("{API_PREFIX}{path}"), item);
    }
    for (path, item) in health["paths"].as_object().into_iter().flatten() {
        full.insert(path.clone(), item.clone());
    }
    for (name, schema) in health["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
    {
        doc["components"]["schemas"][name] = schema.clone();
    }
    unique_operation_ids(&mut full);
    openapi_answers::inline_envelopes(&mut full, &mut doc["components"]["schemas"]);
    doc["paths"] = Value::Object(full);
    openapi_answers::require_answer_fields(doc);
    doc["servers"] = json!([{"url": "/", "description": "this server"}]);
}

/// Handlers of different modules share names (auth and tablet `login`); operation ids must
/// not, so a shared one is prefixed with the operation's tag.
fn unique_operation_ids(paths: &mut Map<String, Value>) {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let ops = || {
        paths
            .values()
            .filter_map(Value::as_object)
            .flat_map(|item| item.values())
    };
    for op in ops() {
        if let Some(id) = op["operationId"].as_str() {
            *seen.entry(id.to_string()).or_default() += 1;
        }
    }
    for op in paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
    {
        let id = op["operationId"].as_str().unwrap_or_default().to_string();
        if seen.get(&id).is_some_and(|n| *n > 1) {
            let tag = op["tags"][0].as_str().unwrap_or("api").to_string();
            op["operationId"] = Value::String(format!("{tag}_{id}"));
        }
    }
}

/// Whether the operation names a store (query or body `storeCode`): an unknown one is 404.
fn names_store(op: &Value, schemas: &Value) -> bool {
    let in_query = op["parameters"]
        .as_array()
        .is_some_and(|ps| ps.iter().any(|p| p["name"] == "storeCode"));
    let body = &op["requestBody"]["content"]["application/json"]["schema"];
    let body = match body["$ref"].as_str() {
        Some(r) => &schemas[r.trim_start_matches("#/components/schemas/")],
        None => body,
    };
    in_query || body["properties"].get("storeCode").is_some()
}

fn complete_operation(method: &str, path: &str, op: &mut Value, schemas: &Value) {
    let access = access(method, path);
    op["security"] = match access {
        Access::Public => json!([]),
        Access::User => json!([{"bearer": []}]),
        Access::UserOrVisitor | Access::Viewer => json!([{}, {"bearer": []}]),
        Access::Staff => json!([{"staff": []}]),
        Access::Ops => json!([{"ops": []}]),
    };
    if !op["parameters"].is_array() {
        op["parameters"] = json!([]);
    }
    let mut headers = vec!["AcceptLanguage", "ChannelId"];
    if reads_cart_token(path) {
        headers.push("CartToken");
    }
    if let Some(list) = op["parameters"].as_array_mut() {
        for param in list.iter_mut() {
            let name = param["name"].as_str().unwrap_or_default();
            if name.ends_with("Code") || name == "orderNo" || name == "paymentId" {
                // What `params::code` accepts; anything else is 400.
                param["schema"]["pattern"] = json!(CODE_PATTERN);
            }
        }
        for name in headers {
            list.push(json!({"$ref": format!("#/components/parameters/{name}")}));
        }
    }
    let mut statuses = vec!["400"];
    if op.get("requestBody").is_some() {
        statuses.push("413");
    }
    // A path names a thing (an order, an address, a product) that may not be there.
    if path.contains('{') || names_store(op, schemas) {
        statuses.push("404");
    }
    match access {
        Access::User | Access::Staff | Access::Viewer => statuses.push("401"),
        // The cart's store may be gone; a change may race another tab's (compare-and-set).
        Access::UserOrVisitor => statuses.extend(["401", "404", "409"]),
        Access::Ops => statuses.extend(["401", "403", "404"]),
        Access::Public => {}
    }
    let Some(responses) = op["responses"].as_object_mut() else {
        return;
    };
    for status in statuses {
        responses.entry(status).or_insert(Value::Null);
    }
    let plain_text = path.starts_with("/payments/notify/");
    for (status, response) in responses.iter_mut() {
        if status.starts_with('2') || response.get("content").is_some() {
            continue;
        }
        if let Some((_, name)) = SHARED.iter().find(|(s, _)| s == status) {
            let shared = json!({"$ref": format!("#/components/responses/{name}")});
            *response = if plain_text {
                // The provider's notify is answered in text, as providers expect; only the
                // channel check in front of every API call answers in the envelope.
                json!({
                    "description": "fail: and why, in text; or the envelope for an unknown X-Channel-Id",
                    "content": {
                        "text/plain": {"schema": {"type": "string"}},
                        "application/json": {"schema": {"type": "object"}}
                    }
                })
            } else {
                shared
            };
        }
    }
    if plain_text {
        if let Some(ok) = responses.get_mut("200") {
            ok["content"] = json!({"text/plain": {"schema": {"type": "string"}}});
        }
    }
    if access == Access::UserOrVisitor {
        if let Some(ok) = responses.get_mut("200") {
            ok["headers"] = json!({"X-Cart-Token": {
                "description": "A visitor's new cart token, when this call issued one.",
                "schema": {"type": "string"}
            }});
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_follows_the_extractor_of_each_handler() {
        let cases = [
            ("get", "/stores/default", Access::Public),
            ("post", "/auth/login", Access::Public),
            ("post", "/auth/logout", Access::User),
            ("post", "/auth/password/change", Access::User),
            ("post", "/auth/password/reset", Access::Public),
            ("get", "/me", Access::User),
            ("get", "/me/privacy", Access::User),
            ("put", "/addresses/{id}", Access::User),
            ("get", "/cart", Access::UserOrVisitor),
            ("post", "/cart/items", Access::UserOrVisitor),
            ("post", "/orders/reservation", Access::UserOrVisitor),
            ("get", "/orders/reservation/slots", Access::Public),
            ("post", "/orders/scan", Access::UserOrVisitor),
            ("post", "/orders", Access::User),
            ("get", "/orders", Access::User),
            ("get", "/orders/{orderNo}", Access::Viewer),
            ("post", "/orders/{orderNo}/cancel", Access::User),
            ("post", "/payments", Access::User),
            ("get", "/payments/{paymentId}", Access::User),
            ("post", "/payments/notify/{provider}", Access::Public),
            ("post", "/tablet/login", Access::Public),
            ("post", "/tablet/logout", Access::Staff),
            ("get", "/tablet/orders", Access::Staff),
            ("get", "/chain/unattended-stores", Access::Ops),
            ("get", "/cartography", Access::Public),
            ("get", "/mention", Access::Public),
        ];
        for (method, path, expected) in cases {
            assert_eq!(access(method, path), expected, "{method} {path}");
        }
    }

    #[test]
    fn a_bare_error_status_becomes_the_shared_response_and_the_rules_add_theirs() {
        let mut op = json!({
            "operationId": "detail",
            "tags": ["addresses"],
            "parameters": [{"name": "id", "in": "path"}],
            "responses": {"200": {"description": "", "content": {}}, "409": {"description": ""}}
        });
        complete_operation("get", "/addresses/{id}", &mut op, &json!({}));
        let responses = &op["responses"];
        for (status, name) in [
            ("400", "BadRequest"),
            ("401", "Unauthorized"),
            ("404", "NotFound"),
            ("409", "Conflict"),
        ] {
            assert_eq!(
                responses[status]["$ref"],
                format!("#/components/responses/{name}"),
                "{status}"
            );
        }
        assert_eq!(op["security"], json!([{"bearer": []}]));
        let names: Vec<&str> = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["$ref"].as_str())
            .collect();
        assert_eq!(
            names,
            [
                "#/components/parameters/AcceptLanguage",
                "#/components/parameters/ChannelId"
            ]
        );
    }
}
