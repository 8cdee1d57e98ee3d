//! The paid-order set-up of the payment tests, written once: a registered customer's delivery
//! order from the flagship (four wings, paid online), its payment attempts at the sandbox, and
//! the order paid at the sandbox cashier and settled.

use super::TestApp;
use crate::payments::{create_payment, pay_at_cashier, unpaid_order, until_state};
use serde_json::Value;

/// A customer's unpaid order and one payment attempt of it, pending at the sandbox.
pub struct Attempt {
    pub token: String,
    pub order_no: String,
    pub payment_id: String,
}

/// A customer's order paid at the sandbox cashier and settled.
pub struct PaidOrder {
    pub token: String,
    pub order_no: String,
    /// The attempt that paid it.
    pub payment_id: String,
    /// The order as its customer reads it once paid (state 6).
    pub order: Value,
}

impl TestApp {
    /// `phone` registered, an unpaid delivery order of theirs, and one payment attempt of it
    /// (Alipay web) pending at the sandbox.
    pub async fn order_with_attempt(&self, phone: &str) -> Attempt {
        let (token, order_no) = unpaid_order(self, phone).await;
        let payment_id = self.attempt(&token, &order_no).await;
        Attempt {
            token,
            order_no,
            payment_id,
        }
    }

    /// A payment attempt of the order (Alipay web): its payment id. While one is open, it is
    /// that one again.
    pub async fn attempt(&self, token: &str, order_no: &str) -> String {
        create_payment(self, token, order_no).await["paymentId"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// A payment attempt of the order with `method` (the customer switches method: a second
    /// open attempt): its payment id.
    pub async fn attempt_with(&self, token: &str, order_no: &str, method: &str) -> String {
        let created = self
            .post(
                "/api/v1/payments",
                &serde_json::json!({"orderNo": order_no, "method": method}),
                Some(token),
            )
            .await;
        created.assert_ok()["paymentId"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Pays the order: an attempt paid at the sandbox cashier, then waits until the order is
    /// paid (state 6).
    pub async fn pay(&self, token: &str, order_no: &str) -> PaidOrder {
        let payment_id = self.attempt(token, order_no).await;
        pay_at_cashier(self, &payment_id, "success").await;
        let order = until_state(self, token, order_no, 6).await;
        PaidOrder {
            token: token.to_string(),
            order_no: order_no.to_string(),
            payment_id,
            order,
        }
    }

    /// `phone` registered, and a delivery order of theirs paid at the sandbox cashier and
    /// settled (state 6).
    pub async fn paid_order(&self, phone: &str) -> PaidOrder {
        let (token, order_no) = unpaid_order(self, phone).await;
        self.pay(&token, &order_no).await
    }
}
