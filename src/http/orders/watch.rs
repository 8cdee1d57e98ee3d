//! `order:watch` on the real-time gateway: the same rules and bytes as GET /orders/{orderNo}.

use crate::http::orders::detail::{may_read, view_of, written};
use crate::state::AppState;
use actors::domain::lang::Lang;
use serde_json::Value;

/// `order:watch` on the real-time gateway reads orders through the same rules as the REST
/// detail: the owner (by session token) or a view token holder, and the same snapshot.
pub struct WatchOrders(pub AppState);

/// What `order:watch` reads: the same view and bytes as GET /orders/{orderNo}, so a page that
/// watches an order costs no database read while nothing about the order changed.
impl crate::realtime::gateway::OrderWatch for WatchOrders {
    fn allowed(
        &self,
        order_no: String,
        user_token: Option<String>,
        view_token: Option<String>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>> {
        let state = self.0.clone();
        Box::pin(async move {
            let now = state.clock.now_ms();
            let user_id = match user_token {
                Some(t) => state
                    .sessions()
                    .resolve(&actors::accounts::secrets::Token::from_client(&t), now)
                    .await
                    .ok()
                    .map(|s| s.user_id),
                None => None,
            };
            view_of(&state, &order_no, now)
                .await
                .is_ok_and(|entry| may_read(&state, &entry, user_id, view_token.as_deref()))
        })
    }

    fn snapshot(
        &self,
        order_no: String,
        lang: Lang,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Value>> + Send>> {
        let state = self.0.clone();
        Box::pin(async move {
            // Read after the socket joined the order's room: an event forgets the view before
            // it goes out, so this is the order as of that event or later (the client drops
            // events whose seq the snapshot already has).
            let now = state.clock.now_ms();
            let entry = view_of(&state, &order_no, now).await.ok()?;
            let json = written(&state, &entry, lang, now).await.ok()?;
            serde_json::from_slice(json.as_bytes()).ok()
        })
    }
}
