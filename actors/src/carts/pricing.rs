//! A stored cart priced on the live store board: which store and time it is priced for, the
//! customer's coupons read once, and the pricing itself. The cart routes and checkout share it,
//! so the cart a customer sees and the order they submit are priced by the same call.

use crate::catalogue::Snapshot;
use crate::db::coupons::CouponRepo;
use crate::db::{Db, DbError};
use crate::domain::cart::Cart;
use crate::domain::catalogue::{virtual_store, Store};
use crate::domain::channel::Channel;
use crate::domain::loyalty::coupon::{Coupon, CouponTemplate};
use crate::domain::ordering::order_time::stored_or_reset;
use crate::domain::pricing::cart_coupons::CouponInput;
use crate::domain::pricing::cart_pricing::{price_cart, PricedCart, PricingInput};
use crate::domain::stores::store_board::StoreLive;

/// The customer's usable coupons, read once per request so every pricing of it agrees.
pub struct HeldCoupons {
    pub coupons: Vec<(Coupon, CouponTemplate)>,
    pub channel: u16,
    pub now: i64,
}

impl HeldCoupons {
    /// None in channel 30 (no coupons there at all).
    pub async fn read(
        db: &Db,
        channel: Channel,
        user_id: i64,
        now: i64,
    ) -> Result<Option<HeldCoupons>, DbError> {
        if channel == Channel::MealVoucherPartner {
            return Ok(None);
        }
        let coupons = CouponRepo::new(db.clone()).usable(user_id, now).await?;
        Ok(Some(HeldCoupons {
            coupons,
            channel: channel.id(),
            now,
        }))
    }
}

/// The store a cart is priced for: its own, else the chain's default, else the virtual one.
pub fn cart_store(snapshot: &Snapshot, cart: &Cart) -> Store {
    cart.store_code
        .as_deref()
        .and_then(|c| snapshot.store(c))
        .or_else(|| snapshot.default_store())
        .cloned()
        .unwrap_or_else(|| virtual_store(snapshot.catalogue.cities.first()))
}

/// The time a cart is priced at: its order time, or now + 15 minutes when it has none or it
/// has passed (spec §5).
pub fn cart_time(cart: &Cart, now: i64) -> i64 {
    stored_or_reset(cart.order_time, now)
}

/// Prices `cart` for `board` (the store as customers meet it and its live state) at `now`
/// and hands both to `f` (the priced cart borrows them).
pub fn priced_with<R>(
    snapshot: &Snapshot,
    cart: &Cart,
    board: &(Store, StoreLive),
    held: Option<&HeldCoupons>,
    now: i64,
    f: impl FnOnce(&PricedCart, &Store) -> R,
) -> R {
    let (store, live) = board;
    let coupons = held.map(|h| CouponInput {
        held: &h.coupons,
        channel: h.channel,
        now: h.now,
    });
    let input = PricingInput {
        store,
        order_type: cart.order_type,
        at: cart_time(cart, now),
        sold_out: &live.sold_out,
        product: &|c| snapshot.product(c),
        category: &|c| snapshot.category(c),
        promotions: &snapshot.catalogue.promotions,
        coupons: coupons.as_ref(),
    };
    let priced = price_cart(cart, &input);
    f(&priced, store)
}
