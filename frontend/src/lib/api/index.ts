export {
  apiGet,
  apiPost,
  apiPut,
  apiPatch,
  apiDelete,
  buildUrl,
  clearApiCache,
  readEnvelope,
  setAuthTokenGetter,
  addHeaderProvider,
  onAuthError,
  API_BASE,
} from './client';
export type { Query, RequestOptions } from './client';
export { CART_TOKEN_HEADER, getCartToken, setCartToken, forgetCartToken, onCartTokenChange } from './cartToken';
export { ApiError, ERR, isApiError, statusMessageKey } from './errors';
export { fieldErrors, retryAfterSeconds } from './refusalData';
