//! The coupons' refusals (issue 24), in both languages.

use super::{ApiError, Msg};
use actors::coupons::{CollectError, GiveError};
use actors::db::coupons::{IssueError, TransferError};
use actors::domain::accounts::phone::PhoneError;

/// Channel 30 (the meal-voucher partner) has no coupons at all.
pub fn not_in_channel() -> ApiError {
    ApiError::not_found(
        "当前渠道暂不支持优惠券",
        "Coupons are not available in this channel",
    )
}

pub fn bad_status() -> ApiError {
    ApiError::bad_input(
        "优惠券状态不正确，可选 available、used、expired",
        "status must be available, used or expired",
    )
}

pub fn offer_not_found() -> ApiError {
    ApiError::not_found("优惠券活动不存在", "No such coupon offer")
}

pub fn sold_out() -> ApiError {
    ApiError::conflict("已领完", "All gone")
}

pub fn already_collected() -> ApiError {
    ApiError::conflict("您已领取过", "You have already collected this")
}

pub fn offer_ended() -> ApiError {
    ApiError::conflict("活动已结束", "This offer has ended")
}

pub fn collect_error(e: CollectError) -> ApiError {
    match e {
        CollectError::NotFound => offer_not_found(),
        CollectError::SoldOut => sold_out(),
        CollectError::UserLimit => already_collected(),
        CollectError::Ended => offer_ended(),
        CollectError::Db(d) => d.into(),
    }
}

/// The one answer to every failed exchange, so nobody learns which codes exist.
pub fn exchange_invalid() -> ApiError {
    ApiError::bad_input(
        "兑换码无效或已使用",
        "This code is not valid or has been used",
    )
}

pub fn coupon_not_found() -> ApiError {
    ApiError::not_found("优惠券不存在", "No such coupon")
}

pub fn phone_invalid(e: &PhoneError) -> ApiError {
    ApiError::BadInput(Msg::new(
        e.message(actors::domain::lang::Lang::Zh),
        e.message(actors::domain::lang::Lang::En),
    ))
}

pub fn no_account() -> ApiError {
    ApiError::bad_input("该手机号尚未注册", "No account uses this phone number")
}

pub fn give_error(e: GiveError) -> ApiError {
    match e {
        GiveError::NoAccount => no_account(),
        GiveError::Transfer(t) => transfer_error(t),
        GiveError::Issue(i) => issue_error(i),
        GiveError::Db(d) => d.into(),
    }
}

pub fn transfer_error(e: TransferError) -> ApiError {
    match e {
        TransferError::NotFound => coupon_not_found(),
        TransferError::Locked => ApiError::conflict(
            "优惠券正在订单中使用，不能转赠",
            "This coupon is held by an order and cannot be transferred",
        ),
        TransferError::NotTransferable => {
            ApiError::conflict("该优惠券不可转赠", "This coupon cannot be transferred")
        }
        TransferError::NotUsable => ApiError::conflict(
            "该优惠券已不可用，不能转赠",
            "This coupon can no longer be used and cannot be transferred",
        ),
        TransferError::ToSelf => {
            ApiError::bad_input("不能转赠给自己", "You cannot transfer a coupon to yourself")
        }
        TransferError::Db(d) => d.into(),
    }
}

pub fn issue_error(e: IssueError) -> ApiError {
    match e {
        IssueError::NoTemplate => template_not_found(),
        IssueError::SoldOut => sold_out(),
        IssueError::UserLimit => ApiError::conflict(
            "该用户已达领取上限",
            "The customer has reached this coupon's limit",
        ),
        IssueError::Ended => offer_ended(),
        IssueError::Db(d) => d.into(),
    }
}

pub fn template_not_found() -> ApiError {
    ApiError::not_found("优惠券模板不存在", "No such coupon template")
}

pub fn chain_issue_invalid() -> ApiError {
    ApiError::bad_input(
        "请填写 templateCode、cellPhone、count（1 到 100）和 requestId",
        "templateCode, cellPhone, count (1 to 100) and requestId are required",
    )
}

/// Giving an order's coupons back failed: 退券失败，请联系客服 with the store's phone
/// (errCode 01, spec §5/§8); the outbox keeps retrying.
pub fn give_back_failed(content: String, store_tel: String) -> ApiError {
    ApiError::RefundFailed { content, store_tel }
}
