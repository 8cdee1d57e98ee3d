/**
 * The one API client. Knows the envelope `{errCode, errMsg, data}`, the request context headers
 * (Accept-Language from the current language; X-Channel-Id, and X-Sub-Channel-Code in scan-to-order,
 * from lib/channel), timeouts, de-duplication of identical GETs in flight and optional short
 * caches. It never navigates or toasts: callers and the app layer decide what an error means for
 * the screen.
 */
import { channelHeaders } from '../channel';
import { getLang, translate } from '../i18n';
import { CART_TOKEN_HEADER, getCartToken, setCartToken } from './cartToken';
import { ApiError, ERR, statusMessageKey } from './errors';

export const API_BASE = '/api/v1';
export const CLIENT_VERSION = '3.1.0';
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Session hooks set by the app layer (lib knows no feature): where the bearer token comes from,
 * extra headers computed per request (e.g. the selected address), and who hears about 401 / 407.
 */
type TokenGetter = () => string | null | undefined;
type HeaderProvider = () => Record<string, string | null | undefined>;
type AuthErrorListener = (error: ApiError) => void;

let tokenGetter: TokenGetter = () => null;
const headerProviders = new Set<HeaderProvider>();
const authListeners = new Set<AuthErrorListener>();

/** `Authorization: Bearer <token>` is sent whenever the getter answers a token. */
export function setAuthTokenGetter(getter: TokenGetter | null): void {
  tokenGetter = getter ?? (() => null);
}

/** Adds headers to every request (a null or empty value leaves the header out); returns the remover. */
export function addHeaderProvider(provider: HeaderProvider): () => void {
  headerProviders.add(provider);
  return () => headerProviders.delete(provider);
}

/** Called with every 401 / 407 failure of a request that sent a token or needs one; returns the remover. */
export function onAuthError(listener: AuthErrorListener): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** GET only: reuse a successful answer for this long (per URL and language). */
  cacheMs?: number;
  headers?: Record<string, string>;
}

interface Envelope<T> {
  errCode: string;
  errMsg: string;
  data: T;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  if (query) {
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null || v === '') continue;
      params.append(k, String(v));
    }
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'errCode' in value;
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function clientError(status: number, errCode?: string, data: unknown = null): ApiError {
  const lang = getLang();
  const offline = status === 0 && isOffline();
  const code = errCode ?? (status === 0 ? (offline ? ERR.OFFLINE : ERR.NETWORK) : ERR.BAD_RESPONSE);
  return new ApiError(code, translate(lang, statusMessageKey(status, offline)), status, data);
}

/** Turns an HTTP answer into data or an ApiError (exported for tests). */
export async function readEnvelope<T>(res: Response): Promise<T> {
  const lang = getLang();
  let body: unknown = null;
  try {
    const text = await res.text();
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!isEnvelope(body)) {
    throw clientError(res.ok ? 200 : res.status);
  }
  const errCode = String(body.errCode);
  if (errCode === ERR.OK && res.ok) return body.data as T;
  if (res.status >= 500) throw clientError(res.status, errCode, body.data ?? null);
  let message = body.errMsg;
  if (errCode === ERR.ILLEGAL_REQUEST) message = translate(lang, 'err.illegal');
  else if (errCode === ERR.SESSION_EXPIRED) message = translate(lang, 'err.sessionExpired');
  else if (!message) message = translate(lang, errCode === ERR.LOGIN_REQUIRED ? 'err.loginRequired' : 'err.busy');
  throw new ApiError(errCode, message, res.status, body.data ?? null);
}

const inflight = new Map<string, Promise<unknown>>();
const cache = new Map<string, { at: number; data: unknown }>();

/** Forget cached answers (tests; after a language-independent change such as a new store). */
export function clearApiCache(): void {
  cache.clear();
  inflight.clear();
}

async function send<T>(method: string, path: string, opts: RequestOptions): Promise<T> {
  const url = buildUrl(path, opts.query);
  const lang = getLang();
  const controller = new AbortController();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': lang,
    'X-Client-Version': CLIENT_VERSION,
    ...channelHeaders(),
  };
  for (const provider of headerProviders) {
    for (const [k, v] of Object.entries(provider())) if (v) headers[k] = v;
  }
  const token = tokenGetter();
  if (token) headers.Authorization = `Bearer ${token}`;
  // A visitor's cart (and the login that merges it into the user's cart).
  const cartToken = getCartToken();
  if (cartToken) headers[CART_TOKEN_HEADER] = cartToken;
  Object.assign(headers, opts.headers);
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: controller.signal, credentials: 'same-origin' });
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    throw clientError(0);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  // A cart token issued to a visitor is kept (a logged-in request's answer never replaces it).
  const issued = res.headers?.get?.(CART_TOKEN_HEADER);
  if (issued && !token && issued !== cartToken) setCartToken(issued);
  try {
    return await readEnvelope<T>(res);
  } catch (e) {
    if (e instanceof ApiError && e.isAuth) for (const listener of authListeners) listener(e);
    throw e;
  }
}

export function apiGet<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const key = `${getLang()} ${buildUrl(path, opts.query)}`;
  if (opts.cacheMs) {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < opts.cacheMs) return Promise.resolve(hit.data as T);
  }
  // A caller with its own abort signal gets its own request; the rest share one in flight.
  if (opts.signal) return send<T>('GET', path, opts).then((data) => remember(key, opts, data));
  const pending = inflight.get(key);
  if (pending) return pending as Promise<T>;
  const p = send<T>('GET', path, opts)
    .then((data) => remember(key, opts, data))
    .finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

function remember<T>(key: string, opts: RequestOptions, data: T): T {
  if (opts.cacheMs) cache.set(key, { at: Date.now(), data });
  return data;
}

export function apiPost<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  return send<T>('POST', path, { ...opts, body });
}

export function apiPut<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  return send<T>('PUT', path, { ...opts, body });
}

export function apiPatch<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  return send<T>('PATCH', path, { ...opts, body });
}

export function apiDelete<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return send<T>('DELETE', path, opts);
}
