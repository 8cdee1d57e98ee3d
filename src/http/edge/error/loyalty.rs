//! The loyalty programme's messages (issue 23), each in zh and en.

use super::ApiError;
use actors::db::points::PointsError;

pub fn agreement_required() -> ApiError {
    ApiError::bad_input(
        "请先阅读并同意会员协议",
        "Please read and accept the member agreement first",
    )
}

pub fn agreement_outdated(current: Option<&str>) -> ApiError {
    match current {
        Some(v) => ApiError::bad_input(
            format!("会员协议已更新（{v}），请阅读最新版本后再加入"),
            format!("The member agreement has changed (version {v}); please read the current one and join again"),
        ),
        None => no_programme(),
    }
}

pub fn no_programme() -> ApiError {
    ApiError::Unavailable(super::Msg::fixed(
        "会员计划暂未开放",
        "The member programme is not open yet",
    ))
}

pub fn not_member() -> ApiError {
    ApiError::bad_input("请先加入会员", "Please join the member club first")
}

pub fn bad_filter() -> ApiError {
    ApiError::bad_input(
        "积分类型不正确，可选 all、earned、pending、spent、expired",
        "kind must be all, earned, pending, spent or expired",
    )
}

pub fn bad_page_size() -> ApiError {
    ApiError::bad_input("每页条数须为 1 到 100", "pageSize must be from 1 to 100")
}

pub fn not_enough(available: i64) -> ApiError {
    ApiError::bad_input(
        format!("积分不足，当前可用 {available} 积分"),
        format!("Not enough points: {available} available"),
    )
}

pub fn points_error(e: PointsError) -> ApiError {
    match e {
        PointsError::NotEnough { available } => not_enough(available),
        PointsError::Db(d) => d.into(),
    }
}

pub fn deduction_below_minimum(min: i64) -> ApiError {
    ApiError::bad_input(
        format!("积分抵扣至少 {min} 积分"),
        format!("At least {min} points must be used"),
    )
}

pub fn deduction_over_cap(usable: i64) -> ApiError {
    ApiError::bad_input(
        format!("本单最多可用 {usable} 积分"),
        format!("This order can use at most {usable} points"),
    )
}

pub fn deduction_negative() -> ApiError {
    ApiError::bad_input("积分数不能为负", "pointsDeductions cannot be negative")
}

pub fn deduction_not_member() -> ApiError {
    ApiError::bad_input(
        "加入会员后才能使用积分",
        "Join the member club to use points",
    )
}

pub fn gift_not_found() -> ApiError {
    ApiError::not_found("礼包不存在", "No such gift")
}

pub fn gift_option_invalid() -> ApiError {
    ApiError::bad_input("请选择礼包中的一项", "Choose one of the gift's options")
}

pub fn gift_closed() -> ApiError {
    ApiError::conflict(
        "礼包已领取或已过期",
        "This gift was claimed already or has expired",
    )
}

pub fn adjust_invalid() -> ApiError {
    ApiError::bad_input(
        "请填写手机号、非零积分、原因和 requestId",
        "cellPhone, non-zero points, reason and requestId are required",
    )
}

pub fn adjust_unknown_phone() -> ApiError {
    ApiError::not_found("该手机号没有会员", "No member has that phone number")
}

pub fn refund_not_completed() -> ApiError {
    ApiError::conflict(
        "只有已完成的订单可以整单退款",
        "Only a completed order can be refunded in full",
    )
}

pub fn order_not_found() -> ApiError {
    ApiError::not_found("订单不存在", "No such order")
}
