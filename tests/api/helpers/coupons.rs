//! The request scaffolding of the coupon tests, written once: who the customer is, coupons
//! saved, given and collected, a product coupon's item in the cart, a delivery priced as the
//! checkout prices it, and an order submitted with the coupons the cart applies.

use super::{Answer, TestApp};
use crate::cart::{cart_call, Auth};
use actors::db::coupons::IssueSource;
use actors::domain::loyalty::coupon::CouponTemplate;
use reqwest::Method;
use serde_json::{json, Value};

impl TestApp {
    /// The signed-in customer's user id (`GET /api/v1/me`).
    pub async fn user_id(&self, token: &str) -> i64 {
        let me = self.get_auth("/api/v1/me", Some(token)).await;
        let me = me.assert_ok();
        me["id"].as_i64().or_else(|| me["userId"].as_i64()).unwrap()
    }

    /// `phone` registered: (token, user id).
    pub async fn customer(&self, phone: &str) -> (String, i64) {
        let token = self.register(phone).await;
        let user_id = self.user_id(&token).await;
        (token, user_id)
    }

    /// Saves the template (created, or changed to `t`).
    pub async fn save_coupon_template(&self, t: &CouponTemplate) {
        let repo = self.app_state.coupons.repo();
        repo.upsert_template(t, self.clock.now_ms()).await.unwrap();
    }

    /// Issues one coupon of the saved template to `user_id`: its code (an issue `key` seen
    /// before answers the coupon it issued then).
    pub async fn issue_coupon(
        &self,
        template_code: &str,
        user_id: i64,
        source: IssueSource,
        key: Option<&str>,
    ) -> String {
        let repo = self.app_state.coupons.repo();
        let now = self.clock.now_ms();
        repo.issue(template_code, user_id, source, key, now)
            .await
            .unwrap()
            .coupon()
            .coupon_code
            .clone()
    }

    /// Saves `t` and gives one coupon of it to `user_id` as the chain does, keyed by `key`:
    /// its code.
    pub async fn give_coupon(&self, t: &CouponTemplate, user_id: i64, key: &str) -> String {
        self.save_coupon_template(t).await;
        let code = &t.template_code;
        self.issue_coupon(code, user_id, IssueSource::Chain, Some(key))
            .await
    }

    /// `POST /api/v1/coupons/collect/{template}` as `token`'s customer.
    pub async fn collect(&self, token: &str, template: &str) -> Answer {
        let path = format!("/api/v1/coupons/collect/{template}");
        self.post(&path, &json!({}), Some(token)).await
    }

    /// The same, which must succeed: the collected coupon's code.
    pub async fn collected(&self, token: &str, template: &str) -> String {
        self.collect(token, template).await.assert_ok()["couponCode"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// `POST /api/v1/cart/coupon-items`: the product coupon's item into the customer's cart.
    pub async fn add_coupon_item(&self, token: &str, code: &str) -> Answer {
        let body = json!({"couponCode": code});
        let path = "/api/v1/cart/coupon-items";
        cart_call(self, Method::POST, path, Some(&body), Auth::User(token)).await
    }

    /// `DELETE /api/v1/cart/coupon-items/{code}`: the item out of the cart.
    pub async fn remove_coupon_item(&self, token: &str, code: &str) -> Answer {
        let path = format!("/api/v1/cart/coupon-items/{code}");
        cart_call(self, Method::DELETE, &path, None, Auth::User(token)).await
    }

    /// The customer's cart as a delivery from the flagship, priced as the checkout prices it
    /// (`POST /api/v1/orders/reservation`).
    pub async fn priced_delivery(&self, token: &str) -> Value {
        let body = json!({"orderType": 0, "storeCode": "SH001"});
        let priced = crate::checkout::reserve(self, token, body).await;
        priced.assert_ok().clone()
    }

    /// Submits `body` (`POST /api/v1/orders`) with the amount and the coupons the cart shows
    /// now, so the checkout locks them: (orderNo, the cart it was submitted as).
    pub async fn submit_as_the_cart_shows(&self, token: &str, body: Value) -> (String, Value) {
        let cart = self.get_auth("/api/v1/cart", Some(token)).await;
        let cart = cart.assert_ok().clone();
        let mut body = body;
        body["orderAmount"] = cart["orderAmount"].clone();
        body["osCoupons"] = cart["osCoupons"].clone();
        let order = self.post("/api/v1/orders", &body, Some(token)).await;
        let order_no = order.assert_ok()["orderNo"].as_str().unwrap().to_string();
        (order_no, cart)
    }
}
