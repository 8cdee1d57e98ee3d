//! What travels on the bus: the facts the real-time gateway turns into Socket.IO events
//! (API.md). Routing to rooms (order:{orderNo}, store:{storeCode}, user:{userId}) is the
//! gateway's business; the event carries the keys it needs for that.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Event {
    /// An order moved: `order:progress` to its watchers and its store.
    OrderProgress {
        order_no: String,
        store_code: String,
        user_id: Option<i64>,
        progress: u8,
        state: u8,
        /// Epoch ms of the transition.
        at: i64,
        /// Epoch ms the order is expected at the customer, when known.
        eta: Option<i64>,
        /// What every screen shows as the arrival (`domain::arrival`), when known.
        #[serde(default)]
        arrival: Option<crate::domain::ordering::arrival::Arrival>,
        /// Increases by one per order; a gap tells the client to take a snapshot.
        seq: u64,
    },
    /// A payment settled: `payment:result` to the paying user.
    PaymentResult {
        order_no: String,
        user_id: i64,
        payment_id: String,
        result: PaymentOutcome,
        at: i64,
    },
    /// A store changed status, notice or sold-out list: `store:update` to its room.
    StoreUpdate {
        store_code: String,
        status: String,
        /// The staff's own notice; None: the status's default words, which each app says in its
        /// reader's language.
        notice: Option<String>,
        sold_out: Vec<String>,
        /// The board's version after the change: every node's StoreActor for the store reloads
        /// unless it already holds this one or a later one.
        #[serde(default)]
        version: i64,
    },
    /// An order reached a store's queue (`order:new`) or moved in it (`order:updated`), as the
    /// tablet lists it, to the store's tablets.
    TabletOrder {
        store_code: String,
        new: bool,
        order: serde_json::Value,
    },
    /// Sessions of the user ended on some node (logout, password change or reset, account
    /// closed): every node forgets the ones it trusted from memory
    /// (`accounts::sessions::cached`) and disconnects the user's sockets whose session the
    /// store no longer knows (the gateway). Nothing is emitted to clients.
    SessionsEnded { user_id: i64 },
    /// Tablet sessions of a staff member ended (a tablet's logout, a PIN change): every node
    /// disconnects the staff member's tablet sockets whose session is gone.
    StaffSessionsEnded { staff_id: i64, store_code: String },
    /// Something of an order changed on some node: every node drops what it keeps of the
    /// order's detail (`http::order_views`). Nothing is emitted to clients.
    OrderChanged { order_no: String },
    /// A cart changed: `cart:updated` to the owner's other sockets.
    CartUpdated {
        user_id: Option<i64>,
        cart_token: Option<String>,
        version: u64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentOutcome {
    Paid,
    Failed,
    Closed,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn events_round_trip_as_tagged_json() {
        let events = [
            Event::OrderProgress {
                order_no: "O1".into(),
                store_code: "SH001".into(),
                user_id: Some(7),
                progress: 20,
                state: 6,
                at: 1,
                eta: Some(2),
                arrival: None,
                seq: 3,
            },
            Event::PaymentResult {
                order_no: "O1".into(),
                user_id: 7,
                payment_id: "P1".into(),
                result: PaymentOutcome::Paid,
                at: 1,
            },
            Event::StoreUpdate {
                store_code: "SH001".into(),
                status: "busy".into(),
                notice: None,
                sold_out: vec!["PZ001".into()],
                version: 3,
            },
            Event::CartUpdated {
                user_id: None,
                cart_token: Some("t".into()),
                version: 4,
            },
            Event::SessionsEnded { user_id: 9 },
            Event::StaffSessionsEnded {
                staff_id: 3,
                store_code: "SH001".into(),
            },
            Event::OrderChanged {
                order_no: "O2".into(),
            },
        ];
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            assert_eq!(
                serde_json::from_str::<Event>(&json).unwrap(),
                event,
                "{json}"
            );
        }
        let json = serde_json::to_value(Event::CartUpdated {
            user_id: Some(1),
            cart_token: None,
            version: 2,
        })
        .unwrap();
        assert_eq!(json["kind"], "cartUpdated");
        assert_eq!(json["userId"], 1);
    }
}
