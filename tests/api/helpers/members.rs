//! A club member ready to order with points and a coupon, as the reversal tests set one up.

use super::TestApp;
use crate::cart_coupons::cash;
use crate::payments::ready_to_submit;
use serde_json::{json, Value};

/// A member ready to order.
pub struct ReadyMember {
    pub token: String,
    pub user_id: i64,
    /// The ¥10 coupon (no threshold) given to them.
    pub coupon: String,
    /// The submit body with the amounts the cart shows.
    pub body: Value,
}

impl TestApp {
    /// `phone` registered with `items` in a delivery cart, joined to the club, given `points`
    /// by the chain and one ¥10 coupon of `template`.
    pub async fn ready_member(
        &self,
        phone: &str,
        items: Value,
        points: i64,
        template: &str,
    ) -> ReadyMember {
        let (token, body) = ready_to_submit(self, phone, items).await;
        let version = self.get("/api/v1/members/agreement").await.assert_ok()["version"].clone();
        self.post(
            "/api/v1/members/join",
            &json!({"agreementVersion": version}),
            Some(&token),
        )
        .await
        .assert_ok();
        let user_id = self.user_id(&token).await;
        self.post(
            "/api/v1/chain/points/adjust",
            &json!({"cellPhone": phone, "points": points, "reason": "test", "requestId": format!("ready-{phone}")}),
            Some("test-ops-token"),
        )
        .await
        .assert_ok();
        let coupon = self
            .give_coupon(&cash(template, 0, 1_000), user_id, phone)
            .await;
        ReadyMember {
            token,
            user_id,
            coupon,
            body,
        }
    }
}
