//! What may go into a cart here and now (spec ordering §4 cart, §5, §8 hints): which order
//! type an add shops for, whether the store takes items at all, and whether one product with
//! the customer's choices can be sold. Pure; the cart routes and reorder ask these before the
//! cart's session writes anything.

use crate::domain::cart::item::{component_codes, normalize, Selection, SelectionError};
use crate::domain::cart::Cart;
use crate::domain::catalogue::effective::{availability, Availability, RuleContext};
use crate::domain::catalogue::{Category, Product, Store, GIFT_CATEGORY_NAME};
use crate::domain::lang::Lang;
use crate::domain::ordering::order_time::{check_taking, NotTaking};

/// Why an item does not go into the cart, in the customer's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddRefusal {
    NothingChosen,
    OrderTypeNotOffered,
    /// Unknown, hidden, or a gift (gifts come with promotions, never by themselves).
    NoSuchProduct,
    /// Not on sale at this time of day, or not yet.
    OffTime,
    /// Ended, or not sold at this store or for this order type.
    NotHere,
    Selection(SelectionError),
    SoldOut,
    /// A topping or flavour chosen is sold out.
    ComponentSoldOut,
}

impl AddRefusal {
    pub fn message(&self, lang: Lang) -> String {
        let (zh, en) = match self {
            AddRefusal::NothingChosen => ("请选择商品", "Choose something to add"),
            AddRefusal::OrderTypeNotOffered => (
                "该门店不支持此服务方式",
                "This store does not offer that order type",
            ),
            AddRefusal::NoSuchProduct => ("商品不存在", "No such product"),
            AddRefusal::OffTime => (
                "该商品当前非售卖时间",
                "That item is not on sale at this time",
            ),
            AddRefusal::NotHere => ("该商品已失效", "That item is not available here"),
            AddRefusal::Selection(e) => return e.message(lang),
            AddRefusal::SoldOut => ("该商品已售罄", "That item is sold out"),
            AddRefusal::ComponentSoldOut => (
                "所选的配料或口味已售罄，请重新选择",
                "A topping or flavour you chose is sold out; please choose again",
            ),
        };
        match lang {
            Lang::Zh => zh.to_string(),
            Lang::En => en.to_string(),
        }
    }

    /// The refusals that say the product does not exist (404 on the wire), as against the
    /// rest (bad input).
    pub fn is_not_found(&self) -> bool {
        matches!(self, AddRefusal::NoSuchProduct)
    }
}

/// The order type an add shops for: the one asked, if the store offers it; else the cart's,
/// if offered; else the store's first.
pub fn order_type_for_add(
    asked: Option<u8>,
    offered: &[u8],
    cart_type: u8,
) -> Result<u8, AddRefusal> {
    match asked {
        Some(t) if offered.contains(&t) => Ok(t),
        Some(_) => Err(AddRefusal::OrderTypeNotOffered),
        None if offered.contains(&cart_type) => Ok(cart_type),
        None => Ok(offered.first().copied().unwrap_or(0)),
    }
}

/// A store its staff closed (休息中) takes no items as if it were open (issue 22): an add is
/// refused, saying why and what to do, unless the cart is booked at this store for a slot it
/// takes. Outside its hours a store still fills carts: the customer books the time at
/// checkout, and submit refuses an order for now.
pub fn store_takes_items(
    store: &Store,
    cart: &Cart,
    order_type: u8,
    now: i64,
) -> Result<(), NotTaking> {
    let why = match check_taking(store, order_type, None, now) {
        Err(why @ NotTaking::Closed) => why,
        _ => return Ok(()),
    };
    let booked_here = cart.is_book && cart.store_code.as_deref() == Some(store.store_code.as_str());
    let booked_ok = booked_here
        && cart
            .order_time
            .is_some_and(|at| check_taking(store, order_type, Some(at), now).is_ok());
    if booked_ok {
        Ok(())
    } else {
        Err(why)
    }
}

/// A product a customer may add by itself: shown, in a category, not a gift.
pub fn sold_by_itself(product: &Product, category: Option<&Category>) -> bool {
    product.is_show && category.is_some_and(|c| c.name.cn != GIFT_CATEGORY_NAME)
}

/// Whether `product` with the customer's choices can be sold here and now, and the choices
/// read strictly against the product.
pub fn check_item(
    product: &Product,
    rules: &RuleContext,
    sold_out: &[String],
    selection: &Selection,
) -> Result<Selection, AddRefusal> {
    match availability(product.effective_rule.as_ref(), rules) {
        Availability::Available => {}
        Availability::OffTime | Availability::NotStarted => return Err(AddRefusal::OffTime),
        Availability::Expired | Availability::NotHere => return Err(AddRefusal::NotHere),
    }
    let selection = normalize(product, selection).map_err(AddRefusal::Selection)?;
    if sold_out.contains(&product.product_code) {
        return Err(AddRefusal::SoldOut);
    }
    let components = component_codes(product, &selection);
    if components.iter().any(|c| sold_out.contains(c)) {
        return Err(AddRefusal::ComponentSoldOut);
    }
    Ok(selection)
}

impl Cart {
    /// Moves the cart to `store`: its items stay (they are checked again there), its order
    /// type too when the store offers it (else the store's first), a table of another store
    /// is let go. False when it is already there.
    pub fn move_to_store(&mut self, store: &Store) -> bool {
        if self.store_code.as_deref() == Some(store.store_code.as_str()) {
            return false;
        }
        self.store_code = Some(store.store_code.clone());
        if !store.service_methods.contains(&self.order_type) {
            if let Some(&first) = store.service_methods.first() {
                self.set_order_type(first);
            }
        }
        if self
            .desk
            .as_ref()
            .is_some_and(|d| d.store_code != store.store_code)
        {
            self.desk = None;
        }
        true
    }
}

#[cfg(test)]
#[path = "adding_tests.rs"]
mod tests;
