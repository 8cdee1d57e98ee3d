import type { MessageKey } from '../i18n';

/** Reserved error codes of the server contract (design API.md, spec account §8). */
export const ERR = {
  OK: '00',
  LOGIN_REQUIRED: '401',
  SESSION_EXPIRED: '407',
  ILLEGAL_REQUEST: '400233',
  NOT_FOUND: '404',
  INVALID: '400',
  TOO_FREQUENT: '429',
  STORE_LOOKUP: '02',
  /** Client side: no HTTP answer (status 0), timeout or offline. */
  NETWORK: 'NETWORK',
  OFFLINE: 'OFFLINE',
  /** Client side: an answer that is not the envelope. */
  BAD_RESPONSE: 'BAD_RESPONSE',
} as const;

/**
 * A failed call. `message` is ready to show in the request language: the server's errMsg, or one of
 * the client messages of spec account §8. `data` carries what an error envelope still holds
 * (store lookups answer errCode "02" with a list).
 */
export class ApiError extends Error {
  readonly errCode: string;
  readonly status: number;
  readonly data: unknown;

  constructor(errCode: string, message: string, status: number, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.errCode = errCode;
    this.status = status;
    this.data = data;
  }

  get isAuth(): boolean {
    return this.errCode === ERR.LOGIN_REQUIRED || this.errCode === ERR.SESSION_EXPIRED;
  }

  get isNetwork(): boolean {
    return this.errCode === ERR.NETWORK || this.errCode === ERR.OFFLINE;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** The message key for a failure that carries no usable server message. */
export function statusMessageKey(status: number, offline: boolean): MessageKey {
  if (offline) return 'err.offline';
  if (status === 0) return 'err.network';
  if (status >= 500) return 'err.server';
  return 'err.busy';
}
