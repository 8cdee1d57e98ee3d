//! The words of a cart a customer reads: why a line is disabled, why a promotion gives
//! nothing, how far the cart is from free delivery or the delivery minimum. In zh and en.

use actors::domain::lang::Lang;
use actors::domain::money::Fen;
use actors::domain::pricing::cart_pricing::LineStatus;
use actors::domain::pricing::promotion_choice::LeftOut;

pub fn disable_text(status: LineStatus, lang: Lang) -> Option<(&'static str, &'static str)> {
    let (reason, zh, en) = match status {
        LineStatus::Valid => return None,
        LineStatus::SoldOut => ("soldOut", "已售罄", "Sold out"),
        LineStatus::OffTime => ("offTime", "非售卖时间", "Not on sale at this time"),
        LineStatus::Expired => ("expired", "商品已失效", "Item has expired"),
    };
    Some((reason, if lang == Lang::Zh { zh } else { en }))
}

/// Why a rule gives nothing, as the customer reads it. `name_of` names another rule.
pub fn left_out_text(
    reason: &LeftOut,
    lang: Lang,
    name_of: &dyn Fn(&str) -> String,
) -> (&'static str, String) {
    let zh = lang == Lang::Zh;
    match reason {
        LeftOut::NotEffective => (
            "notEffective",
            if zh {
                "不在活动时间内"
            } else {
                "Not available at this time"
            }
            .into(),
        ),
        LeftOut::NotHere => (
            "notHere",
            if zh {
                "本门店或当前服务方式不适用"
            } else {
                "Not for this store or order type"
            }
            .into(),
        ),
        LeftOut::NoItems => (
            "noItems",
            if zh {
                "购物车中没有可享此优惠的商品"
            } else {
                "No items in your cart qualify"
            }
            .into(),
        ),
        LeftOut::BelowThreshold { gap } => (
            "belowThreshold",
            if zh {
                format!("再买¥{gap}可享")
            } else {
                format!("Add ¥{gap} more to get it")
            },
        ),
        LeftOut::Mutex { by, chosen: true } => (
            "mutex",
            if zh {
                format!("您已选择「{}」，不可同享", name_of(by))
            } else {
                format!("You chose {}; they cannot be combined", name_of(by))
            },
        ),
        LeftOut::Mutex { by, chosen: false } => (
            "mutex",
            if zh {
                format!("已为您选用更优惠的「{}」", name_of(by))
            } else {
                format!("{} saves you more", name_of(by))
            },
        ),
        LeftOut::ItemsTaken { by } => (
            "itemsTaken",
            if zh {
                format!("相关商品已享「{}」", name_of(by))
            } else {
                format!("Those items already get {}", name_of(by))
            },
        ),
        LeftOut::NotBetter => (
            "notBetter",
            if zh {
                "使用后总价不会更低"
            } else {
                "It would not lower your total"
            }
            .into(),
        ),
    }
}

pub fn free_delivery_message(difference: Fen, lang: Lang) -> Option<String> {
    (difference > Fen::ZERO).then(|| match lang {
        Lang::Zh => format!("再买¥{difference}即可免配送费"),
        Lang::En => format!("Add ¥{difference} more for free delivery"),
    })
}

/// The gap to the store's delivery minimum, as the cart and checkout say it.
pub fn min_delivery_message(gap: Fen, lang: Lang) -> Option<String> {
    (gap > Fen::ZERO).then(|| match lang {
        Lang::Zh => format!("还差¥{gap}起送"),
        Lang::En => format!("¥{gap} more for delivery"),
    })
}
