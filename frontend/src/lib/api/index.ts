export { apiGet, apiPost, buildUrl, clearApiCache, readEnvelope, API_BASE, CHANNEL_ID } from './client';
export type { Query, RequestOptions } from './client';
export { ApiError, ERR, isApiError, statusMessageKey } from './errors';
