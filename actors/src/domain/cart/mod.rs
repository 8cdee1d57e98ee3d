//! A cart as stored: its lines, where and when it is for, and the customer's rule choices.
//! The operations are pure; the CartSession actor runs them one at a time and persists each.

pub mod adding;
pub mod item;

use crate::domain::cart::item::Selection;
use serde::{Deserialize, Serialize};

/// Most lines one cart holds, and most of one line: a guard against a runaway client, far above
/// any real order.
pub const MAX_LINES: usize = 50;
pub const MAX_QUANTITY: u32 = 99;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartLine {
    pub id: String,
    pub product_code: String,
    /// Normalized against the product when added.
    pub selection: Selection,
    pub quantity: u32,
    pub in_car_time: i64,
}

/// A table the customer scanned: dine-in at that desk until `expires_at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Desk {
    pub store_code: String,
    pub desk_no: String,
    pub expires_at: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cart {
    #[serde(default)]
    pub lines: Vec<CartLine>,
    #[serde(default)]
    pub store_code: Option<String>,
    /// 0 delivery (the default), 1 pickup, 2 dine-in.
    #[serde(default)]
    pub order_type: u8,
    #[serde(default)]
    pub old_service_method: Option<u8>,
    #[serde(default)]
    pub order_time: Option<i64>,
    #[serde(default)]
    pub is_book: bool,
    #[serde(default)]
    pub desk: Option<Desk>,
    /// Rules the customer picked within their mutex groups (chooseRule).
    #[serde(default)]
    pub chosen_rules: Vec<String>,
    /// The customer's coupon choice (POST /cart/coupons): None, the best combination; else
    /// exactly these coupon codes (empty: no coupon).
    #[serde(default)]
    pub chosen_coupons: Option<Vec<String>>,
    /// Product coupons put in the cart as coupon items (addShoppingCarByCoupon), by coupon
    /// code, in the order added.
    #[serde(default)]
    pub coupon_items: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CartError {
    #[error("no such line")]
    NoSuchLine,
    #[error("cart full")]
    TooManyLines,
    #[error("quantity too large")]
    TooMany,
}

/// How an edit changes a line's quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "action", content = "quantity")]
pub enum Edit {
    Increase,
    Decrease,
    Quantity(u32),
}

impl Cart {
    /// Adds `quantity` of a configured product; the same product with the same selection adds
    /// to its existing line. `min_sale` is the product's minimum.
    pub fn add(
        &mut self,
        product_code: &str,
        selection: Selection,
        quantity: u32,
        min_sale: u32,
        line_id: String,
        now: i64,
    ) -> Result<(), CartError> {
        let quantity = quantity.max(min_sale.max(1));
        if let Some(line) = self
            .lines
            .iter_mut()
            .find(|l| l.product_code == product_code && l.selection == selection)
        {
            let total = line.quantity + quantity;
            if total > MAX_QUANTITY {
                return Err(CartError::TooMany);
            }
            line.quantity = total;
            return Ok(());
        }
        if self.lines.len() >= MAX_LINES {
            return Err(CartError::TooManyLines);
        }
        if quantity > MAX_QUANTITY {
            return Err(CartError::TooMany);
        }
        self.lines.push(CartLine {
            id: line_id,
            product_code: product_code.to_string(),
            selection,
            quantity,
            in_car_time: now,
        });
        Ok(())
    }

    /// Changes a line's quantity; going below the product's minimum removes the line.
    pub fn edit(&mut self, line_id: &str, edit: Edit, min_sale: u32) -> Result<(), CartError> {
        let min_sale = min_sale.max(1);
        let index = self
            .lines
            .iter()
            .position(|l| l.id == line_id)
            .ok_or(CartError::NoSuchLine)?;
        let current = self.lines[index].quantity;
        let wanted = match edit {
            Edit::Increase => current + 1,
            Edit::Decrease => current.saturating_sub(1),
            Edit::Quantity(q) => q,
        };
        if wanted > MAX_QUANTITY {
            return Err(CartError::TooMany);
        }
        if wanted < min_sale {
            self.lines.remove(index);
        } else {
            self.lines[index].quantity = wanted;
        }
        Ok(())
    }

    pub fn remove(&mut self, line_id: &str) -> Result<(), CartError> {
        let before = self.lines.len();
        self.lines.retain(|l| l.id != line_id);
        if self.lines.len() == before {
            return Err(CartError::NoSuchLine);
        }
        Ok(())
    }

    pub fn clear(&mut self) {
        self.lines.clear();
        self.coupon_items.clear();
    }

    /// Adds a coupon item; false when it is already there.
    pub fn add_coupon_item(&mut self, coupon_code: &str) -> bool {
        if self.coupon_items.iter().any(|c| c == coupon_code) {
            return false;
        }
        self.coupon_items.push(coupon_code.to_string());
        true
    }

    /// Removes a coupon item; false when it was not there.
    pub fn remove_coupon_item(&mut self, coupon_code: &str) -> bool {
        let before = self.coupon_items.len();
        self.coupon_items.retain(|c| c != coupon_code);
        self.coupon_items.len() != before
    }

    /// Picks `rule_id` within its mutex group: other choices of that group are forgotten.
    pub fn choose_rule(&mut self, rule_id: &str, group_members: &[String]) {
        self.chosen_rules.retain(|r| !group_members.contains(r));
        self.chosen_rules.push(rule_id.to_string());
    }

    /// Sets the order type, remembering the previous one (spec oldServiceMethod).
    pub fn set_order_type(&mut self, order_type: u8) {
        if order_type != self.order_type {
            self.old_service_method = Some(self.order_type);
            self.order_type = order_type;
        }
    }

    /// Takes a visitor's cart into this one at login: equal lines add up, the rest is appended
    /// (up to the line limit). The user's store, type and time stay unless the user had no store.
    pub fn merge(&mut self, visitor: Cart) {
        if self.store_code.is_none() {
            self.store_code = visitor.store_code.clone();
            self.order_type = visitor.order_type;
            self.order_time = visitor.order_time;
            self.is_book = visitor.is_book;
        }
        if self.desk.is_none() {
            self.desk = visitor.desk.clone();
        }
        for line in visitor.lines {
            if let Some(mine) = self
                .lines
                .iter_mut()
                .find(|l| l.product_code == line.product_code && l.selection == line.selection)
            {
                mine.quantity = (mine.quantity + line.quantity).min(MAX_QUANTITY);
            } else if self.lines.len() < MAX_LINES {
                self.lines.push(line);
            }
        }
    }

    /// The scanned desk while it is still valid.
    pub fn valid_desk(&self, now: i64) -> Option<&Desk> {
        self.desk.as_ref().filter(|d| d.expires_at > now)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn size(code: &str) -> Selection {
        Selection {
            size_code: Some(code.into()),
            ..Selection::default()
        }
    }

    #[test]
    fn equal_configurations_share_a_line() {
        let mut cart = Cart::default();
        cart.add("PZ001", size("12"), 1, 1, "a".into(), 1).unwrap();
        cart.add("PZ001", size("12"), 2, 1, "b".into(), 2).unwrap();
        cart.add("PZ001", size("9"), 1, 1, "c".into(), 3).unwrap();
        assert_eq!(cart.lines.len(), 2);
        assert_eq!(cart.lines[0].quantity, 3);
        assert_eq!(cart.lines[0].in_car_time, 1);
    }

    #[test]
    fn quantities_respect_min_sale_and_limits() {
        let mut cart = Cart::default();
        cart.add("SD001", Selection::default(), 0, 2, "a".into(), 1)
            .unwrap();
        assert_eq!(cart.lines[0].quantity, 2, "at least minSale");
        cart.edit("a", Edit::Increase, 2).unwrap();
        assert_eq!(cart.lines[0].quantity, 3);
        cart.edit("a", Edit::Decrease, 2).unwrap();
        assert_eq!(cart.lines[0].quantity, 2);
        cart.edit("a", Edit::Decrease, 2).unwrap();
        assert!(cart.lines.is_empty(), "below minSale removes the line");
        assert_eq!(
            cart.edit("a", Edit::Increase, 1),
            Err(CartError::NoSuchLine)
        );
        cart.add("SD001", Selection::default(), 1, 1, "b".into(), 1)
            .unwrap();
        assert_eq!(
            cart.edit("b", Edit::Quantity(100), 1),
            Err(CartError::TooMany)
        );
        cart.edit("b", Edit::Quantity(0), 1).unwrap();
        assert!(cart.lines.is_empty());
    }

    #[test]
    fn edits_parse_from_the_api_shape() {
        let e: Edit = serde_json::from_str(r#"{"action":"quantity","quantity":4}"#).unwrap();
        assert_eq!(e, Edit::Quantity(4));
        let e: Edit = serde_json::from_str(r#"{"action":"increase"}"#).unwrap();
        assert_eq!(e, Edit::Increase);
    }

    #[test]
    fn merging_a_visitor_cart_adds_equal_lines() {
        let mut user = Cart::default();
        user.add("PZ001", size("12"), 1, 1, "u1".into(), 1).unwrap();
        let mut visitor = Cart {
            store_code: Some("SH002".into()),
            ..Cart::default()
        };
        visitor
            .add("PZ001", size("12"), 2, 1, "v1".into(), 1)
            .unwrap();
        visitor
            .add("DR001", Selection::default(), 1, 1, "v2".into(), 1)
            .unwrap();
        user.merge(visitor);
        assert_eq!(user.lines.len(), 2);
        assert_eq!(user.lines[0].quantity, 3);
        assert_eq!(
            user.store_code.as_deref(),
            Some("SH002"),
            "the user had none"
        );
    }

    #[test]
    fn choosing_a_rule_replaces_its_group_choice() {
        let mut cart = Cart::default();
        let group = vec!["R1".to_string(), "R2".to_string()];
        cart.choose_rule("R1", &group);
        cart.choose_rule("R9", &["R9".to_string()]);
        cart.choose_rule("R2", &group);
        assert_eq!(cart.chosen_rules, vec!["R9".to_string(), "R2".to_string()]);
    }

    #[test]
    fn order_type_change_remembers_the_old_one() {
        let mut cart = Cart::default();
        cart.set_order_type(1);
        assert_eq!((cart.order_type, cart.old_service_method), (1, Some(0)));
        cart.set_order_type(1);
        assert_eq!(cart.old_service_method, Some(0));
    }
}
