#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The served OpenAPI document against the route map and the server, cheaply: a handler
//! without docs, an operation without its error answers, or an answer the document does not
//! list fails here. The thorough check (fuzzing every operation) is tests/schema/run.sh.

use crate::helpers::{backend, spawn_app, TestApp};
use serde_json::Value;
use std::collections::BTreeSet;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Every route the handlers declare, as (method, full path), read from the route attributes
/// of src/http/**/*.rs; with whether its attribute block has a `#[utoipa::path]`.
fn declared_routes() -> Vec<(String, String, bool, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http");
    let map = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
    let mut routes = Vec::new();
    // src/http and its folders (edge/ and a folder per resource).
    let mut files = Vec::new();
    let root = dir.clone();
    let mut dirs = vec![dir];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        // The sandbox provider's own pages are not the API.
        if !file.ends_with(".rs") || file == "sandbox.rs" {
            continue;
        }
        let prefix = if file == "health.rs" { "" } else { "/api/v1" };
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // The module the route map names it by: stores/mod.rs is `stores`, orders/detail.rs
        // is `orders::detail`.
        let module = path
            .strip_prefix(&root)
            .unwrap()
            .with_extension("")
            .to_string_lossy()
            .trim_end_matches("/mod")
            .replace('/', "::");
        for (i, line) in lines.iter().enumerate() {
            let line = line.trim();
            // The most read resources are served by `read(path, handler)` in the route map,
            // without a route macro; their documentation names the method and the full path.
            if let Some(rest) = line.strip_prefix("#[utoipa::path(get, path = \"") {
                let full = rest.split('"').next().unwrap();
                let name = lines[i..]
                    .iter()
                    .find_map(|l| l.trim().strip_prefix("pub async fn "))
                    .and_then(|l| l.split('(').next())
                    .unwrap();
                let registered = map.lines().map(str::trim).find_map(|l| {
                    l.strip_prefix(".service(read(\"")
                        .and_then(|r| r.strip_suffix(&format!("\", {module}::{name}))")))
                });
                let Some(route) = registered else {
                    panic!("{file}: {name} documents GET {full} but the route map has no read(…, {module}::{name})");
                };
                assert!(
                    full.ends_with(route),
                    "{file}: the documented path {full} does not end with the route {route}"
                );
                routes.push((
                    "get".to_string(),
                    format!("{prefix}{full}"),
                    true,
                    file.clone(),
                ));
                continue;
            }
            for method in METHODS {
                let Some(rest) = line.strip_prefix(&format!("#[{method}(\"")) else {
                    continue;
                };
                let route = rest.split('"').next().unwrap();
                // The attributes above the route macro, up to the previous item.
                let attributes: Vec<&str> = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| {
                        let l = l.trim_start();
                        !(l.is_empty() || l.starts_with("pub ") || l.starts_with('}'))
                    })
                    .copied()
                    .collect();
                let documented = attributes.iter().any(|l| l.contains("#[utoipa::path"));
                // A handler served inside a scope of its resource (src/http/mod.rs) names its
                // full path for the document; the macro's path is the end of it.
                let full = attributes.iter().find_map(|l| {
                    l.split_once("#[utoipa::path(path = \"")
                        .and_then(|(_, rest)| rest.split('"').next())
                });
                let route = match full {
                    Some(full) => {
                        assert!(
                            full.ends_with(route),
                            "{file}: the documented path {full} does not end with the route {route}"
                        );
                        full
                    }
                    None => route,
                };
                routes.push((
                    method.to_string(),
                    format!("{prefix}{route}"),
                    documented,
                    file.clone(),
                ));
            }
        }
    }
    assert!(routes.len() > 60, "the route scan found only {routes:?}");
    routes
}

async fn document(app: &TestApp) -> Value {
    let doc = app.get("/api-docs/openapi.json").await;
    assert_eq!(doc.status, 200);
    doc.body
}

/// (method, path, operation) for every documented operation.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            ops.push((method.clone(), path.clone(), op.clone()));
        }
    }
    ops
}

#[tokio::test]
async fn every_route_is_documented_and_nothing_else() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    let documented: BTreeSet<(String, String)> = operations(&doc)
        .into_iter()
        .map(|(m, p, _)| (m, p))
        .collect();
    let mut served = BTreeSet::new();
    for (method, path, annotated, file) in declared_routes() {
        assert!(
            annotated,
            "{method} {path} ({file}) has no #[utoipa::path] annotation"
        );
        assert!(
            documented.contains(&(method.clone(), path.clone())),
            "{method} {path} ({file}) is missing from the document: list it in src/http/openapi.rs"
        );
        served.insert((method, path));
    }
    for op in &documented {
        assert!(served.contains(op), "{op:?} is documented but not served");
    }
}

/// `pizza-order openapi` (what `npm run gen:api` reads) prints exactly the served document, and
/// nothing else on stdout: no settings, database or log line needed.
#[tokio::test]
async fn the_openapi_command_prints_the_served_document() {
    let app = spawn_app().await;
    let served = document(&app).await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pizza-order"))
        .arg("openapi")
        // A folder without settings: the command must not need them.
        .args(["--config-dir", "/nonexistent"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed, served);
}

/// Follows a local `$ref` once.
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value["$ref"].as_str() {
        Some(r) => doc
            .pointer(r.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("{r} does not resolve")),
        None => value,
    }
}

fn every_ref<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r),
                    _ => every_ref(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| every_ref(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn every_operation_documents_its_answers() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    let mut refs = Vec::new();
    every_ref(&doc, &mut refs);
    for r in refs {
        assert!(
            doc.pointer(r.trim_start_matches('#')).is_some(),
            "{r} does not resolve"
        );
    }
    let mut ids = BTreeSet::new();
    for (method, path, op) in operations(&doc) {
        let name = format!("{} {path}", method.to_uppercase());
        let id = op["operationId"].as_str().unwrap_or_default().to_string();
        assert!(
            ids.insert(id.clone()),
            "{name}: operationId {id} is used twice"
        );
        let responses = op["responses"].as_object().unwrap();
        for (status, response) in responses {
            let response = resolve(&doc, response);
            assert!(
                response["content"].is_object(),
                "{name}: the {status} answer has no body schema"
            );
        }
        if !path.starts_with("/api/v1/") {
            continue;
        }
        let text = path.starts_with("/api/v1/payments/notify/");
        let ok = resolve(&doc, &op["responses"]["200"]);
        if !text {
            let schema = resolve(&doc, &ok["content"]["application/json"]["schema"]);
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            for field in ["errCode", "errMsg", "data"] {
                assert!(
                    required.contains(&Value::from(field)),
                    "{name}: 200 is not the envelope: {schema}"
                );
            }
        }
        // Every API call may carry an unknown X-Channel-Id.
        assert!(responses.contains_key("400"), "{name}: no 400");
        let params: Vec<String> = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                resolve(&doc, p)["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        for header in ["Accept-Language", "X-Channel-Id"] {
            assert!(params.iter().any(|p| p == header), "{name}: no {header}");
        }
        let security = op["security"].as_array().cloned().unwrap_or_default();
        if !security.is_empty() {
            assert!(responses.contains_key("401"), "{name}: a token but no 401");
        }
        if path.contains('{') {
            assert!(
                responses.contains_key("404"),
                "{name}: names a thing but no 404"
            );
        }
    }
    let unauthorized = &doc["components"]["responses"]["Unauthorized"]["content"]
        ["application/json"]["schema"]["properties"]["errCode"]["enum"];
    assert_eq!(unauthorized, &serde_json::json!(["401", "407"]));
}

/// A concrete path for a documented one: every parameter a harmless value.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') { "X1" } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn what_the_server_answers_without_or_with_a_dead_token_is_documented() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    for (method, path, op) in operations(&doc) {
        let name = format!("{} {path}", method.to_uppercase());
        let documented = op["responses"].as_object().unwrap();
        let body = op.get("requestBody").map(|_| serde_json::json!({}));
        let secured = op["security"].as_array().is_some_and(|s| {
            s.iter()
                .any(|r| r.as_object().is_some_and(|m| !m.is_empty()))
        });
        let tokens: &[Option<&str>] = if secured {
            &[None, Some("no-such-token")]
        } else {
            &[None]
        };
        for token in tokens {
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let answer = app
                .call(m, &concrete(&path), body.as_ref(), *token, &[])
                .await;
            let status = answer.status.to_string();
            assert!(
                documented.contains_key(&status),
                "{name} with token {token:?} answered {status}, which the document does not list: {}",
                answer.body
            );
            assert!(answer.status < 500, "{name}: {}", answer.body);
            if answer.status == 401 {
                // No token is 401; a dead one 407 (登录过期), unless the call also takes an
                // order's view token and so reads a dead session as none.
                let expected: &[&str] = if token.is_some() {
                    &["407", "401"]
                } else {
                    &["401"]
                };
                assert!(
                    expected.contains(&answer.err_code()),
                    "{name}: {}",
                    answer.body
                );
                assert!(secured, "{name} answers 401 but names no token");
            }
        }
    }
}

/// Found by the schema check on PostgreSQL, which refuses NUL in text where SQLite keeps it:
/// such text is a 400 in the request's language that stores nothing, never a 500.
#[tokio::test]
async fn text_the_database_cannot_store_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let token = app.register("13900007001").await;
    let name = app
        .patch(
            "/api/v1/me",
            &serde_json::json!({"name": "张\u{0}三"}),
            Some(&token),
        )
        .await;
    name.assert_error(400, "400");
    assert_eq!(name.data()[0]["field"], "name");

    // A field no parser looks inside: the database's refusal is the answer.
    let address = serde_json::json!({"name": "张三", "phone": "13812345678",
        "baseAddress": "上海市黄浦区西藏中路236号", "houseNumber": "5楼501",
        "lat": "31.235", "lng": "121.475", "cityName": "上海\u{0}市"});
    let created = app
        .call(
            reqwest::Method::POST,
            "/api/v1/addresses",
            Some(&address),
            Some(&token),
            &[("Accept-Language", "en")],
        )
        .await;
    let list = app.get_auth("/api/v1/addresses", Some(&token)).await;
    if backend() == "postgres" {
        created.assert_error(400, "400");
        assert_eq!(
            created.err_msg(),
            "The request contains characters that cannot be stored"
        );
        assert_eq!(list.assert_ok().as_array().unwrap().len(), 0);
    } else {
        created.assert_ok();
        assert_eq!(list.assert_ok().as_array().unwrap().len(), 1);
    }

    let staff = app
        .post(
            "/api/v1/tablet/login",
            &serde_json::json!({"storeCode": "SH001", "staffCode": "manager", "pin": "246810"}),
            None,
        )
        .await;
    let staff = staff.assert_ok()["token"].as_str().unwrap().to_string();
    let board = app
        .put(
            "/api/v1/tablet/store/status",
            &serde_json::json!({"status": "busy", "notice": "午高峰\u{0}稍候"}),
            Some(&staff),
        )
        .await;
    assert_eq!(board.assert_ok()["notice"], "午高峰稍候");
}

/// The errCodes an operation's description names ("errCode -20"), in order.
fn named_err_codes(text: &str) -> Vec<String> {
    text.split("errCode")
        .skip(1)
        .filter_map(|rest| {
            let code: String = rest
                .trim_start()
                .trim_start_matches(['"', '`'])
                .chars()
                .take_while(|c| *c == '-' || c.is_ascii_digit())
                .collect();
            (!code.is_empty() && code != "-").then_some(code)
        })
        .collect()
}

/// Issue 34 item 13: the document said an empty cart at checkout is errCode -4 while the
/// server answers -20 (and -4 is the chat app's bind confirm, spec account §4). What the
/// verify operation names is what the server answers, for the empty cart and the cart with
/// no valid item alike.
#[tokio::test]
async fn the_empty_cart_errcode_the_document_names_is_the_one_served() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    let answer = app
        .post(
            "/api/v1/cart/verify",
            &serde_json::json!({"pageType": "orderSubmit"}),
            None,
        )
        .await;
    answer.assert_error(400, "-20");
    let verify = &doc["paths"]["/api/v1/cart/verify"]["post"];
    let text = format!(
        "{} {}",
        verify["summary"].as_str().unwrap_or_default(),
        verify["description"].as_str().unwrap_or_default()
    );
    let named = named_err_codes(&text);
    assert!(
        !named.is_empty(),
        "POST /cart/verify names no errCode: {text}"
    );
    for code in named {
        assert_eq!(
            code,
            answer.err_code(),
            "POST /cart/verify documents errCode {code}, the server answers {}: {text}",
            answer.err_code()
        );
    }
}
