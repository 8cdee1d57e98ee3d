/**
 * The coupon feature (issue 24): /my/coupon/list (the coupons by tab, exchange by code, transfer,
 * the offers to collect) and checkout's coupon row and picker. The cart's coupon actions are the
 * cart store's (POST /cart/coupons, /cart/coupon-items), composed in by the app.
 */
export { CouponListPage } from './components/CouponListPage';
export { CheckoutCoupons, type CheckoutCouponsProps, type CouponActionResult } from './components/CheckoutCoupons';
export { COUPON_TABS, isCouponTab, type CouponTab } from './api/coupons';
export { useCartCoupons } from './store/cartCoupons';
export { tapAction, mutexGroups, couponSummary, isProductCoupon } from './picker';
