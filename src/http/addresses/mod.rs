//! The address book (spec account §3, §5): list, add, change, delete, set the default, and
//! smart paste. Every call is the logged-in user's own book: another user's address id is
//! 404 and nothing changes.

pub mod dto;

use crate::http::accounts::credentials::msg;
use crate::http::addresses::dto::{AddressDto, AddressForm, SmartReadDto, SmartReadRequest};
use crate::http::edge::envelope::{Envelope, NoData, Reply};
use crate::http::edge::error::{ApiError, ApiResult, FieldError, Msg};
use crate::http::edge::session::AuthUser;
use crate::state::AppState;
use actix_web::{delete, get, post, put, web, HttpRequest};
use actors::db::addresses::{AddressRepo, AddressRow, Insert};
use actors::domain::accounts::MAX_ADDRESSES;
use actors::domain::geo::address::{check_deletable, AddressError, NewAddress, RawAddress};
use actors::domain::geo::parse_query_point;
use actors::domain::geo::smart_read::smart_read;
use actors::domain::stores::store_rules::delivers_to;

/// The address the client is ordering with; it cannot be deleted (spec §5).
pub const SELECTED_HEADER: &str = "x-selected-address-id";
const SMART_READ_MAX_CHARS: usize = 500;

fn not_found() -> ApiError {
    ApiError::not_found("地址不存在", "Address not found")
}

fn address_error(e: AddressError) -> FieldError {
    FieldError {
        field: e.field(),
        msg: msg(|l| e.message(l)),
    }
}

/// Every field error of the form at once (errMsg is the first).
fn parse(raw: RawAddress) -> ApiResult<NewAddress> {
    NewAddress::parse(raw)
        .map_err(|errors| ApiError::Invalid(errors.into_iter().map(address_error).collect()))
}

/// The rows as answered, each with whether some store delivers there.
async fn dtos(state: &AppState, rows: Vec<AddressRow>) -> Vec<AddressDto> {
    let snapshot = state.catalogue.get().await;
    let stores = &snapshot.catalogue.stores;
    rows.into_iter()
        .map(|row| {
            let scope = parse_query_point(Some(&row.lat), Some(&row.lng))
                .is_ok_and(|p| stores.iter().any(|s| delivers_to(s, p)));
            AddressDto::new(row, scope)
        })
        .collect()
}

async fn one(state: &AppState, user_id: i64, id: i64) -> ApiResult<AddressDto> {
    let row = AddressRepo::new(state.db.clone())
        .get(user_id, id)
        .await?
        .ok_or_else(not_found)?;
    Ok(dtos(state, vec![row]).await.remove(0))
}

/// The user's addresses (userAddrList): the default first, then the most recently changed.
#[utoipa::path(tag = "addresses", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<AddressDto>>), (status = 401)))]
#[get("/addresses")]
pub async fn list(state: web::Data<AppState>, auth: AuthUser) -> ApiResult<Reply<Vec<AddressDto>>> {
    let rows = AddressRepo::new(state.db.clone())
        .list(auth.user_id)
        .await?;
    Ok(Reply::new(dtos(&state, rows).await))
}

/// One address (findAddress / detailAddress).
#[utoipa::path(tag = "addresses", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<AddressDto>), (status = 401), (status = 404)))]
#[get("/addresses/{id}")]
pub async fn detail(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<i64>,
) -> ApiResult<Reply<AddressDto>> {
    Ok(Reply::new(
        one(&state, auth.user_id, path.into_inner()).await?,
    ))
}

/// Adds an address. Every field error is answered at once in `data: [{field, message}]`.
/// At most 20 addresses per user.
#[utoipa::path(tag = "addresses", request_body = AddressForm, security(("bearer" = [])),
    responses((status = 200, body = Envelope<AddressDto>), (status = 400), (status = 401)))]
#[post("/addresses")]
pub async fn create(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: web::Json<AddressForm>,
) -> ApiResult<Reply<AddressDto>> {
    let address = parse(body.into_inner().into())?;
    let inserted = AddressRepo::new(state.db.clone())
        .insert(auth.user_id, &address, MAX_ADDRESSES, state.clock.now_ms())
        .await?;
    match inserted {
        Insert::Created(id) => Ok(Reply::new(one(&state, auth.user_id, id).await?)),
        Insert::Full => Err(ApiError::BadInput(Msg::fixed(
            "最多只能保存20个地址，请先删除不用的地址",
            "You can keep at most 20 addresses; please delete one you no longer use",
        ))),
    }
}

/// Replaces an address's fields; `isDefault` absent keeps the flag.
#[utoipa::path(tag = "addresses", request_body = AddressForm, security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<AddressDto>), (status = 400), (status = 401), (status = 404)))]
#[put("/addresses/{id}")]
pub async fn update(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<i64>,
    body: web::Json<AddressForm>,
) -> ApiResult<Reply<AddressDto>> {
    let id = path.into_inner();
    let raw: RawAddress = body.into_inner().into();
    let is_default = raw.is_default;
    let address = parse(raw)?;
    let repo = AddressRepo::new(state.db.clone());
    if !repo
        .update(auth.user_id, id, &address, is_default, state.clock.now_ms())
        .await?
    {
        return Err(not_found());
    }
    Ok(Reply::new(one(&state, auth.user_id, id).await?))
}

/// Deletes an address. The default address cannot be deleted, nor the one selected for the
/// current order, which the client names in the `X-Selected-Address-Id` header.
#[utoipa::path(tag = "addresses", security(("bearer" = [])),
    params(("id" = i64, Path),
        ("X-Selected-Address-Id" = Option<i64>, Header, description = "the address the current order uses")),
    responses((status = 200, body = Envelope<NoData>, description = "data is null"), (status = 400), (status = 401), (status = 404)))]
#[delete("/addresses/{id}")]
pub async fn remove(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<i64>,
    req: HttpRequest,
) -> ApiResult<Reply<()>> {
    let id = path.into_inner();
    let repo = AddressRepo::new(state.db.clone());
    let row = repo.get(auth.user_id, id).await?.ok_or_else(not_found)?;
    let selected = req
        .headers()
        .get(SELECTED_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        == Some(id);
    check_deletable(row.is_default, selected)
        .map_err(|e| ApiError::BadInput(msg(|l| e.message(l))))?;
    if !repo.delete(auth.user_id, id).await? {
        return Err(not_found());
    }
    Ok(Reply::new(()))
}

/// Makes an address the default (the previous default stops being one).
#[utoipa::path(tag = "addresses", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<AddressDto>), (status = 401), (status = 404)))]
#[post("/addresses/{id}/default")]
pub async fn set_default(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<i64>,
) -> ApiResult<Reply<AddressDto>> {
    let id = path.into_inner();
    if !AddressRepo::new(state.db.clone())
        .set_default(auth.user_id, id, state.clock.now_ms())
        .await?
    {
        return Err(not_found());
    }
    Ok(Reply::new(one(&state, auth.user_id, id).await?))
}

/// Smart paste (smartRead): splits a pasted "name phone address" text into the form's fields
/// for the user to confirm. Fields it cannot find are null.
#[utoipa::path(tag = "addresses", request_body = SmartReadRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<SmartReadDto>), (status = 400), (status = 401)))]
#[post("/addresses/smart-read")]
pub async fn smart_paste(
    _auth: AuthUser,
    body: web::Json<SmartReadRequest>,
) -> ApiResult<Reply<SmartReadDto>> {
    let text = body.text.as_deref().unwrap_or_default();
    if text.trim().is_empty() {
        return Err(ApiError::bad_input(
            "请粘贴地址信息",
            "Please paste the address text",
        ));
    }
    if text.chars().count() > SMART_READ_MAX_CHARS {
        return Err(ApiError::bad_input(
            "粘贴的内容不能超过500个字符",
            "The pasted text cannot exceed 500 characters",
        ));
    }
    Ok(Reply::new(smart_read(text).into()))
}
