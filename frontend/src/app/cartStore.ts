// The cart store as a chunk of its own (shared with the pages that show the cart): the home page's
// first load does without it; app code reaches it on a login, a logout or a table QR link.
export { useCart, CART_ERROR_TOAST_MS } from '@/features/cart';
