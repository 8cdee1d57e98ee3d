//! Submit (spec ordering §3 submit; docs/cart-and-checkout.md "Submit"): the cart becomes an
//! order. The service prices the stored cart again on the store's live board, asks the rules
//! of [`crate::domain::ordering::checkout`] in turn (order type, time, payment, receiver, what
//! can be charged, the delivery minimum, the amounts the customer saw, the points), builds the
//! order and hands it to the cart's session, which writes it, the emptied cart, the points hold
//! and the coupon locks in one transaction. Nothing is written before every rule has passed.
//!
//! How a cart and its lines read is the edge's business ([`CartPresenter`]): the order keeps
//! each line as the customer saw it, and a refused submit answers the cart as it is now.

mod order;

use crate::carts::pricing::{priced_with, HeldCoupons};
use crate::carts::{CartFailure, CartKey, CartRegistry, Checkout, IdempotentAnswer};
use crate::catalogue::{CatalogueService, Snapshot};
use crate::clock::Clock;
use crate::db::addresses::AddressRepo;
use crate::db::carts::StoredCart;
use crate::db::idempotency::Recorded;
use crate::db::order_numbers::OrderNumbers;
use crate::db::users::UserRepo;
use crate::db::{Db, DbError};
use crate::domain::catalogue::{Bilingual, Store, DELIVERY, VIRTUAL_STORE_CODE};
use crate::domain::channel::Channel;
use crate::domain::lang::Lang;
use crate::domain::loyalty::{DeductionError, DEDUCTION};
use crate::domain::money::Fen;
use crate::domain::ordering::checkout::{
    self as rules, ClientAmounts, ReceiverError, SubmitRefusal,
};
use crate::domain::ordering::invoice::Invoice;
use crate::domain::ordering::order_status::PaymentType;
use crate::domain::ordering::remark::Remark;
use crate::domain::pricing::cart_pricing::PricedCart;
use crate::domain::stores::store_board::StoreLive;
use crate::domain::stores::store_rules::delivers_to;
use crate::loyalty::Loyalty;
use crate::orders::OrderRegistry;
use crate::stores::{BoardFailure, StoreBoards};
use std::sync::Arc;

/// A submit as the edge parsed it: every field already a checked value.
#[derive(Debug, Clone)]
pub struct SubmitOrder {
    pub user_id: i64,
    pub channel: Channel,
    pub order_type: u8,
    pub payment: PaymentType,
    pub consign_address_id: Option<i64>,
    pub receiver_name: Option<String>,
    pub receiver_mobile: Option<String>,
    pub remark: Remark,
    pub tableware: u32,
    pub invoice: Option<Invoice>,
    /// The amounts the customer saw.
    pub client: ClientAmounts,
    /// Points to spend (0: none).
    pub points: i64,
    /// The coupons the customer saw applied.
    pub os_coupons: Vec<String>,
}

/// The order a submit created.
#[derive(Debug, Clone, PartialEq)]
pub struct Submitted {
    pub order_no: String,
    pub order_id: i64,
    pub order_amount: Fen,
    /// What is still to pay online (0 for cash on delivery).
    pub payable: Fen,
    pub payment: PaymentType,
    pub state: u8,
    pub order_type: u8,
    pub order_time: i64,
}

/// The cart as the edge shows it, for the order's lines and a refused submit's answer.
pub struct Shown<'a> {
    pub priced: &'a PricedCart<'a>,
    pub store: &'a Store,
    pub stored: &'a StoredCart,
    pub snapshot: &'a Snapshot,
    pub now: i64,
}

/// How the edge words a cart (the request's language, its field names).
pub trait CartPresenter {
    /// The whole cart as the customer sees it: the answer of a submit refused for its prices,
    /// its sold-out lines or its coupons.
    fn cart(&self, shown: &Shown<'_>) -> serde_json::Value;
    /// What the order keeps of the cart: each charged line, each coupon item, and the rules
    /// applied, as the customer saw them.
    fn order_parts(&self, shown: &Shown<'_>) -> OrderParts;
}

/// [`CartPresenter::order_parts`]: the lines in the order of `priced.valid_lines()`, the
/// coupon items in the order of the valid `priced.coupon_items`.
pub struct OrderParts {
    pub lines: Vec<serde_json::Value>,
    pub coupon_items: Vec<serde_json::Value>,
    pub rules: serde_json::Value,
}

/// Why a member's points cannot pay for this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsRefusal {
    NotMember,
    Rule(DeductionError),
}

/// Why a submit created nothing.
#[derive(Debug)]
pub enum CheckoutError {
    Refused(SubmitRefusal),
    /// The store does not take this order now (closed, outside its hours, a refused booking):
    /// the words name the store's hours, so they are made with the store at hand.
    NotTaking {
        zh: String,
        en: String,
    },
    Receiver(ReceiverError),
    NoStoreChosen,
    NoSuchStore,
    NoSuchAddress,
    OutOfArea,
    /// Sold out since the customer looked: their names, and the cart as it is now.
    SoldOut {
        zh: String,
        en: String,
        cart: serde_json::Value,
    },
    /// The customer saw other amounts or coupons: the cart as it is now.
    AmountsChanged {
        cart: serde_json::Value,
    },
    /// A coupon of the order was taken meanwhile (another order locked it, it expired).
    CouponTaken {
        code: String,
        name: Option<Bilingual>,
    },
    Points(PointsRefusal),
    /// The cart changed between pricing and writing: price again.
    Stale,
    /// The order's number was taken (the counter wrapped within a second, a clock set back):
    /// submit again, with another number.
    NumberTaken,
    Cart(CartFailure),
    Board(BoardFailure),
    Db(DbError),
    /// The breakdown did not add up to what is charged: a bug, never the customer's doing.
    Inconsistent(String),
}

impl From<DbError> for CheckoutError {
    fn from(e: DbError) -> Self {
        CheckoutError::Db(e)
    }
}

impl From<BoardFailure> for CheckoutError {
    fn from(e: BoardFailure) -> Self {
        CheckoutError::Board(e)
    }
}

impl From<SubmitRefusal> for CheckoutError {
    fn from(e: SubmitRefusal) -> Self {
        CheckoutError::Refused(e)
    }
}

/// Builds the answer an Idempotency-Key records, once the order exists.
pub type RecordAnswer = Box<dyn FnOnce(&Submitted) -> Recorded + Send>;

/// The checkout service: cheap to build per request from the app's shared parts.
#[derive(Clone)]
pub struct CheckoutService {
    pub db: Db,
    pub catalogue: Arc<CatalogueService>,
    pub carts: Arc<CartRegistry>,
    pub stores: Arc<StoreBoards>,
    pub loyalty: Loyalty,
    pub orders: Arc<OrderRegistry>,
    pub clock: Clock,
}

impl CheckoutService {
    /// One attempt at submitting `order`; `idempotency` is (scope, key, the answer to keep).
    pub async fn submit(
        &self,
        order: &SubmitOrder,
        presenter: &impl CartPresenter,
        idempotency: Option<(String, String, RecordAnswer)>,
    ) -> Result<Submitted, CheckoutError> {
        let now = self.clock.now_ms();
        let key = CartKey::User(order.user_id);
        let snapshot = self.catalogue.get().await;
        let stored = self.carts.read(&key).await.map_err(CheckoutError::Cart)?;
        let cart = &stored.cart;
        // The store's live state is read once: the checks, the cart shown and the amounts
        // frozen all see the same sold-out list.
        let board = self
            .orderable_board(&snapshot, cart.store_code.as_deref().unwrap_or(""))
            .await?;
        let store = &board.0;
        rules::check_order_type(cart.order_type, order.order_type, &store.service_methods)?;
        let desk = cart
            .valid_desk(now)
            .filter(|d| d.store_code == store.store_code)
            .cloned();
        let booked_at = cart.is_book.then(|| cart.order_time.unwrap_or(0));
        let order_time = rules::order_time(store, order.order_type, booked_at, desk.is_some(), now)
            .map_err(|e| CheckoutError::NotTaking {
                zh: e.message(store, Lang::Zh),
                en: e.message(store, Lang::En),
            })?;
        rules::check_payment(order.payment, order.order_type)?;
        rules::check_tableware(order.tableware)?;
        let (receiver, address) = self.receiver(order, store).await?;

        let held = HeldCoupons::read(&self.db, order.channel, order.user_id, now).await?;
        let priced_order = priced_with(
            &snapshot,
            cart,
            &board,
            held.as_ref(),
            now,
            |priced, store| {
                let shown = Shown {
                    priced,
                    store,
                    stored: &stored,
                    snapshot: &snapshot,
                    now,
                };
                self.check_priced(order, &shown).map_err(|e| match e {
                    CheckoutError::SoldOut { zh, en, .. } => CheckoutError::SoldOut {
                        zh,
                        en,
                        cart: presenter.cart(&shown),
                    },
                    other => other,
                })?;
                let parts = presenter.order_parts(&shown);
                Ok::<_, CheckoutError>(order::Priced::new(&shown, parts))
            },
        )?;
        // The member, read once: whether points may be spent, and their level's privileges.
        let holder = self.loyalty.privileges().holder(order.user_id).await?;
        let (points, points_amount) = self
            .points_for(
                holder.is_some(),
                order.user_id,
                order.points,
                priced_order.amounts.total,
            )
            .await?;
        let agree = rules::amounts_agree(
            &order.client,
            &priced_order.amounts,
            (points, points_amount),
            &order.os_coupons,
            &priced_order.applied_coupons,
        );
        if !agree {
            let cart = priced_with(
                &snapshot,
                cart,
                &board,
                held.as_ref(),
                now,
                |priced, store| {
                    presenter.cart(&Shown {
                        priced,
                        store,
                        stored: &stored,
                        snapshot: &snapshot,
                        now,
                    })
                },
            );
            return Err(CheckoutError::AmountsChanged { cart });
        }

        // Decided now from the member's level and kept on the order: a level change later
        // does not move an order already in the kitchen's queue.
        let priority = self
            .loyalty
            .privileges()
            .made_first_for(holder.as_ref())
            .await?;
        let order_no = OrderNumbers::new(self.db.clone()).next(now).await?;
        let new_order = order::new_order(order::Parts {
            order_no,
            order,
            store,
            desk_no: desk.map(|d| d.desk_no),
            receiver,
            address,
            priced: priced_order.clone(),
            points: (points, points_amount),
            order_time,
            is_book: cart.is_book,
            priority,
            now,
        })?;
        let total = new_order.order_amount;
        let submitted = Submitted {
            order_no: new_order.order_no.clone(),
            order_id: 0,
            order_amount: total,
            payable: match order.payment {
                PaymentType::Online => total,
                PaymentType::Offline => Fen::ZERO,
            },
            payment: order.payment,
            state: new_order.state,
            order_type: order.order_type,
            order_time,
        };
        let mut emptied = cart.clone();
        emptied.clear();
        emptied.chosen_rules.clear();
        emptied.chosen_coupons = None;
        let idempotency = idempotency.map(|(scope, key, record)| {
            let answer = submitted.clone();
            let f: IdempotentAnswer =
                Box::new(move |order_id| record(&Submitted { order_id, ..answer }));
            (scope, key, f)
        });
        let done = self
            .carts
            .checkout(
                &key,
                Checkout {
                    read_version: stored.version,
                    order: new_order,
                    emptied,
                    idempotency,
                    points_hold: (points > 0).then_some((order.user_id, points)),
                    coupons_lock: Some((order.user_id, priced_order.applied_coupons.clone())),
                },
            )
            .await
            .map_err(|e| match e {
                CartFailure::Stale => CheckoutError::Stale,
                CartFailure::NumberTaken => CheckoutError::NumberTaken,
                CartFailure::CouponTaken(code) => CheckoutError::CouponTaken {
                    name: held.as_ref().and_then(|h| {
                        h.coupons
                            .iter()
                            .find(|(c, _)| c.coupon_code == code)
                            .map(|(_, t)| t.name.clone())
                    }),
                    code,
                },
                other => CheckoutError::Cart(other),
            })?;
        tracing::info!(order_no = %submitted.order_no, order_id = done.order_id, amount = %total, "order submitted");
        if order.payment == PaymentType::Offline {
            // Cash on delivery reaches the store's queue at once.
            if let Err(e) = self.orders.announce_new(&submitted.order_no).await {
                tracing::warn!(error = %e, "new cash-on-delivery order not announced");
            }
        }
        Ok(Submitted {
            order_id: done.order_id,
            ..submitted
        })
    }

    /// A store that takes orders: real, known, not the virtual default; as its staff set it
    /// now (busy promises, closed with their notice), with its live state.
    pub async fn orderable_board(
        &self,
        snapshot: &Snapshot,
        code: &str,
    ) -> Result<(Store, StoreLive), CheckoutError> {
        if code == VIRTUAL_STORE_CODE {
            return Err(CheckoutError::NoStoreChosen);
        }
        let listed = snapshot.store(code).ok_or(CheckoutError::NoSuchStore)?;
        Ok(self.stores.effective_checked(listed).await?)
    }

    /// Where the order goes and who receives it: the address book entry of a delivery (it
    /// must lie in the store's area), else the customer's profile; what was typed wins.
    async fn receiver(
        &self,
        order: &SubmitOrder,
        store: &Store,
    ) -> Result<(rules::Receiver, serde_json::Value), CheckoutError> {
        let profile = UserRepo::new(self.db.clone()).get(order.user_id).await?;
        let mut contact = (
            profile
                .as_ref()
                .and_then(|u| u.name.clone())
                .unwrap_or_default(),
            profile
                .as_ref()
                .and_then(|u| u.phone.clone())
                .unwrap_or_default(),
        );
        let mut address_doc = serde_json::Value::Null;
        if order.order_type == DELIVERY {
            let id = order.consign_address_id.ok_or(SubmitRefusal::NoAddress)?;
            let address = AddressRepo::new(self.db.clone())
                .get(order.user_id, id)
                .await?
                .ok_or(CheckoutError::NoSuchAddress)?;
            let point = rules::delivery_point(&address.lat, &address.lng)
                .ok_or(CheckoutError::OutOfArea)?;
            if !delivers_to(store, point) {
                return Err(CheckoutError::OutOfArea);
            }
            contact = (address.name.clone(), address.phone.clone());
            address_doc = serde_json::json!({
                "id": address.id, "baseAddress": address.base_address,
                "houseNumber": address.house_number, "lat": address.lat, "lng": address.lng,
                "cityName": address.city_name,
            });
        }
        let receiver = rules::receiver(
            order.order_type,
            contact,
            order.receiver_name.as_deref(),
            order.receiver_mobile.as_deref(),
        )
        .map_err(CheckoutError::Receiver)?;
        Ok((receiver, address_doc))
    }

    /// What the priced cart must be to be ordered: something to charge, nothing sold out
    /// since the customer looked, the delivery minimum reached.
    fn check_priced(&self, order: &SubmitOrder, shown: &Shown<'_>) -> Result<(), CheckoutError> {
        rules::check_priced_submittable(shown.priced)?;
        if let Some((zh, en)) = rules::sold_out_names(shown.priced) {
            return Err(CheckoutError::SoldOut {
                zh,
                en,
                cart: serde_json::Value::Null,
            });
        }
        rules::check_delivery_minimum(shown.store, order.order_type, shown.priced)?;
        Ok(())
    }

    /// The points a submit asks to spend and what they pay, checked against the rule and the
    /// member's available points (the hold in the order's transaction is the real guard).
    async fn points_for(
        &self,
        member: bool,
        user_id: i64,
        requested: i64,
        total: Fen,
    ) -> Result<(i64, Fen), CheckoutError> {
        if requested == 0 {
            return Ok((0, Fen::ZERO));
        }
        if requested < 0 {
            return Err(CheckoutError::Points(PointsRefusal::Rule(
                DeductionError::Negative,
            )));
        }
        if !member {
            return Err(CheckoutError::Points(PointsRefusal::NotMember));
        }
        let available = self.loyalty.points().account(user_id).await?.available;
        let points = DEDUCTION
            .check(requested, available, total)
            .map_err(|e| CheckoutError::Points(PointsRefusal::Rule(e)))?;
        Ok((points, DEDUCTION.amount(points)))
    }
}
