/** The cart feature: the cart state (server-priced), the visitor's cart token, the cart bar and sheet. */
export { CartBar, type CartBarProps } from './components/CartBar';
export { CartLines, type CartLinesProps } from './components/CartLines';
export { CartPromotions } from './components/CartPromotions';
export { cartToast, CART_TOAST_MS, CART_ERROR_TOAST_MS } from './components/cartToast';
export { useCart, startCartLive, resetCart, type CartState, type CartResult, type CartStatus, type LoadOptions } from './store/cart';
export { checkoutBlock, disabledGroups, disabledCount, itemCount, ruleChoices, cartAmounts, type DisabledGroup, type RuleChoice } from './cartView';
