//! Which Socket.IO rooms hear which bus event, under which event name (API.md). Pure, so the
//! whole table is tested here.

use actors::bus::Event;
use serde_json::{json, Value};

pub const CUSTOMERS: &str = "/";
pub const TABLETS: &str = "/store";

#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    pub namespace: &'static str,
    pub room: String,
    pub event: &'static str,
    pub payload: Value,
}

pub fn order_room(order_no: &str) -> String {
    format!("order:{order_no}")
}

pub fn store_room(store_code: &str) -> String {
    format!("store:{store_code}")
}

pub fn user_room(user_id: i64) -> String {
    format!("user:{user_id}")
}

/// A visitor's cart: its token is a secret, but room names never leave the server.
pub fn cart_room(cart_token: &str) -> String {
    format!("cart:{cart_token}")
}

pub fn deliveries(event: &Event) -> Vec<Delivery> {
    let to = |namespace, room, event, payload: &Value| Delivery {
        namespace,
        room,
        event,
        payload: payload.clone(),
    };
    match event {
        Event::OrderProgress {
            order_no,
            store_code,
            progress,
            state,
            at,
            eta,
            arrival,
            seq,
            ..
        } => {
            let payload = json!({
                "orderNo": order_no, "progress": progress, "state": state,
                "at": at, "eta": eta, "arrival": arrival, "seq": seq,
            });
            vec![
                to(CUSTOMERS, order_room(order_no), "order:progress", &payload),
                to(TABLETS, store_room(store_code), "order:progress", &payload),
            ]
        }
        Event::PaymentResult {
            order_no,
            user_id,
            payment_id,
            result,
            at,
        } => {
            let payload = json!({
                "orderNo": order_no, "paymentId": payment_id, "result": result, "at": at,
            });
            vec![to(
                CUSTOMERS,
                user_room(*user_id),
                "payment:result",
                &payload,
            )]
        }
        Event::StoreUpdate {
            store_code,
            status,
            notice,
            sold_out,
            ..
        } => {
            let payload = json!({
                "storeCode": store_code, "status": status, "notice": notice, "soldOut": sold_out,
            });
            vec![
                to(CUSTOMERS, store_room(store_code), "store:update", &payload),
                to(TABLETS, store_room(store_code), "store:update", &payload),
            ]
        }
        Event::TabletOrder {
            store_code,
            new,
            order,
        } => {
            let event = if *new { "order:new" } else { "order:updated" };
            vec![to(TABLETS, store_room(store_code), event, order)]
        }
        Event::CartUpdated {
            user_id,
            cart_token,
            version,
        } => {
            let payload = json!({ "version": version });
            let mut out = Vec::new();
            if let Some(id) = user_id {
                out.push(to(CUSTOMERS, user_room(*id), "cart:updated", &payload));
            }
            if let Some(token) = cart_token {
                out.push(to(CUSTOMERS, cart_room(token), "cart:updated", &payload));
            }
            out
        }
        // For the nodes' memory of sessions and orders and their sockets, not for clients.
        Event::SessionsEnded { .. }
        | Event::StaffSessionsEnded { .. }
        | Event::OrderChanged { .. } => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actors::bus::PaymentOutcome;

    fn routes(event: Event) -> Vec<(&'static str, String, &'static str)> {
        deliveries(&event)
            .into_iter()
            .map(|d| (d.namespace, d.room, d.event))
            .collect()
    }

    #[test]
    fn each_event_reaches_its_rooms() {
        let progress = Event::OrderProgress {
            order_no: "O1".into(),
            store_code: "SH001".into(),
            user_id: Some(7),
            progress: 20,
            state: 6,
            at: 1,
            eta: Some(2),
            arrival: None,
            seq: 3,
        };
        let cases = [
            (
                progress,
                vec![
                    ("/", "order:O1".into(), "order:progress"),
                    ("/store", "store:SH001".into(), "order:progress"),
                ],
            ),
            (
                Event::PaymentResult {
                    order_no: "O1".into(),
                    user_id: 7,
                    payment_id: "P1".into(),
                    result: PaymentOutcome::Failed,
                    at: 1,
                },
                vec![("/", "user:7".into(), "payment:result")],
            ),
            (
                Event::StoreUpdate {
                    store_code: "SH001".into(),
                    status: "busy".into(),
                    notice: None,
                    sold_out: vec![],
                    version: 1,
                },
                vec![
                    ("/", "store:SH001".into(), "store:update"),
                    ("/store", "store:SH001".into(), "store:update"),
                ],
            ),
            (
                Event::CartUpdated {
                    user_id: Some(7),
                    cart_token: Some("t1".into()),
                    version: 4,
                },
                vec![
                    ("/", "user:7".into(), "cart:updated"),
                    ("/", "cart:t1".into(), "cart:updated"),
                ],
            ),
            (
                Event::CartUpdated {
                    user_id: None,
                    cart_token: None,
                    version: 4,
                },
                vec![],
            ),
        ];
        for (event, want) in cases {
            assert_eq!(routes(event.clone()), want, "{event:?}");
        }
    }

    #[test]
    fn payloads_carry_the_api_fields() {
        let d = deliveries(&Event::OrderProgress {
            order_no: "O1".into(),
            store_code: "SH001".into(),
            user_id: None,
            progress: 40,
            state: 6,
            at: 5,
            eta: None,
            arrival: None,
            seq: 9,
        });
        assert_eq!(
            d[0].payload,
            json!({"orderNo": "O1", "progress": 40, "state": 6, "at": 5, "eta": null, "arrival": null, "seq": 9})
        );
        let d = deliveries(&Event::PaymentResult {
            order_no: "O1".into(),
            user_id: 1,
            payment_id: "P".into(),
            result: PaymentOutcome::Paid,
            at: 5,
        });
        assert_eq!(d[0].payload["result"], "paid");
    }
}
