import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18n } from '../i18n';
import { forgetCartToken, getCartToken, onCartTokenChange, setCartToken } from './cartToken';
import { addHeaderProvider, apiGet, apiPost, buildUrl, clearApiCache, onAuthError, setAuthTokenGetter } from './client';
import { ApiError, ERR } from './errors';
import { fieldErrors, retryAfterSeconds } from './refusalData';

function respond(status: number, body: unknown, raw = false) {
  return new Response(raw ? String(body) : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  clearApiCache();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  useI18n.setState({ lang: 'zh' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useI18n.setState({ lang: 'zh' });
});

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a failure');
}

describe('api client', () => {
  it('answers data of a "00" envelope and sends the context headers', async () => {
    fetchMock.mockResolvedValueOnce(respond(200, { errCode: '00', errMsg: '', data: { serverTime: 1 } }));
    useI18n.setState({ lang: 'en' });
    await expect(apiGet('/system/time')).resolves.toEqual({ serverTime: 1 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/system/time');
    const headers = (init?.headers ?? {}) as Record<string, string>;
    expect(headers['Accept-Language']).toBe('en');
    expect(headers['X-Channel-Id']).toBe('2');
  });

  it('builds query strings without empty values', () => {
    expect(buildUrl('/stores/search', { cityCode: '310100', districtCode: '', keyword: undefined, latitude: 31.2 })).toBe(
      '/api/v1/stores/search?cityCode=310100&latitude=31.2',
    );
  });

  it('throws the server message of an error envelope, keeping code, status and data', async () => {
    fetchMock.mockResolvedValueOnce(respond(200, { errCode: '02', errMsg: '未查询到门店', data: [{ storeCode: 'A' }] }));
    const e = await failure(apiGet('/stores/nearby'));
    expect(e.errCode).toBe('02');
    expect(e.message).toBe('未查询到门店');
    expect(e.data).toEqual([{ storeCode: 'A' }]);
  });

  it('maps 4xx envelopes: 404 with its message, 407 and 400233 to the fixed texts', async () => {
    fetchMock.mockResolvedValueOnce(respond(404, { errCode: '404', errMsg: '门店不存在', data: null }));
    expect((await failure(apiGet('/stores/X'))).message).toBe('门店不存在');
    fetchMock.mockResolvedValueOnce(respond(401, { errCode: '407', errMsg: 'whatever', data: null }));
    const expired = await failure(apiGet('/me'));
    expect(expired.message).toBe('登录过期!');
    expect(expired.isAuth).toBe(true);
    fetchMock.mockResolvedValueOnce(respond(400, { errCode: '400233', errMsg: 'x', data: null }));
    expect((await failure(apiGet('/a'))).message).toBe('非法请求');
  });

  it.each([
    ['zh', 500, '服务器异常，请稍后再试!'],
    ['zh', 503, '服务器异常，请稍后再试!'],
    ['zh', 404, '服务器正忙，请稍后再试~'],
    ['en', 502, 'Server error, please try again later!'],
  ] as const)('%s: status %s without an envelope → %s', async (lang, status, message) => {
    useI18n.setState({ lang });
    fetchMock.mockResolvedValueOnce(respond(status, '<html>bad gateway</html>', true));
    const e = await failure(apiGet('/x'));
    expect(e.message).toBe(message);
    expect(e.status).toBe(status);
  });

  it('uses the fixed server message for a 5xx even with an envelope', async () => {
    fetchMock.mockResolvedValueOnce(respond(500, { errCode: '500', errMsg: 'db down', data: null }));
    expect((await failure(apiGet('/x'))).message).toBe('服务器异常，请稍后再试!');
  });

  it('maps a network failure (status 0) and being offline', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const net = await failure(apiGet('/x'));
    expect(net.message).toBe('网络异常，请稍后再试！');
    expect(net.errCode).toBe(ERR.NETWORK);
    expect(net.status).toBe(0);

    const online = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const off = await failure(apiGet('/y'));
    expect(off.message).toBe('网络已断开，请检查网络!');
    expect(off.errCode).toBe(ERR.OFFLINE);
    online.mockRestore();
  });

  it('times out as a network failure', async () => {
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const e = await failure(apiGet('/slow', { timeoutMs: 20 }));
    expect(e.errCode).toBe(ERR.NETWORK);
  });

  it('shares one request between identical GETs in flight and caches when asked', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(respond(200, { errCode: '00', errMsg: '', data: [1] })));
    const [a, b] = await Promise.all([apiGet('/cities', { cacheMs: 1000 }), apiGet('/cities', { cacheMs: 1000 })]);
    expect(a).toEqual([1]);
    expect(b).toEqual([1]);
    await apiGet('/cities', { cacheMs: 1000 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Another language is another answer.
    useI18n.setState({ lang: 'en' });
    await apiGet('/cities', { cacheMs: 1000 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('session hooks', () => {
  afterEach(() => setAuthTokenGetter(null));

  it('sends Authorization: Bearer only when a token exists, plus provided headers', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(respond(200, { errCode: '00', errMsg: '', data: null })));
    await apiPost('/x');
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>).Authorization).toBeUndefined();
    setAuthTokenGetter(() => 'abc');
    const remove = addHeaderProvider(() => ({ 'X-Selected-Address-Id': '7', 'X-Empty': null }));
    await apiPost('/x');
    const headers = fetchMock.mock.calls[1]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer abc');
    expect(headers['X-Selected-Address-Id']).toBe('7');
    expect('X-Empty' in headers).toBe(false);
    remove();
  });

  it('tells the listeners about 401 and 407, not about other errors', async () => {
    const heard: string[] = [];
    const off = onAuthError((e) => heard.push(e.errCode));
    fetchMock.mockResolvedValueOnce(respond(401, { errCode: '407', errMsg: 'x', data: null }));
    await failure(apiPost('/a'));
    fetchMock.mockResolvedValueOnce(respond(401, { errCode: '401', errMsg: '', data: null }));
    await failure(apiPost('/b'));
    fetchMock.mockResolvedValueOnce(respond(400, { errCode: '400', errMsg: 'bad', data: [{ field: 'name', message: '联系人不能为空' }] }));
    const bad = await failure(apiPost('/c'));
    off();
    expect(heard).toEqual(['407', '401']);
    expect(fieldErrors(bad)).toEqual({ name: '联系人不能为空' });
  });

  it('reads retryAfterSeconds of a 429', async () => {
    fetchMock.mockResolvedValueOnce(respond(429, { errCode: '429', errMsg: '请求频繁', data: { retryAfterSeconds: 42 } }));
    expect(retryAfterSeconds(await failure(apiPost('/auth/sms-code')))).toBe(42);
  });
});

describe('visitor cart token', () => {
  afterEach(() => setAuthTokenGetter(null));

  it('keeps a token issued in the X-Cart-Token header and sends it on every later request', async () => {
    const changes: (string | null)[] = [];
    const off = onCartTokenChange((t) => changes.push(t));
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ errCode: '00', errMsg: '', data: {} }), { status: 200, headers: { 'X-Cart-Token': 'c_new' } }),
    );
    await apiGet('/cart');
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>)['X-Cart-Token']).toBeUndefined();
    expect(getCartToken()).toBe('c_new');
    fetchMock.mockResolvedValueOnce(respond(200, { errCode: '00', errMsg: '', data: {} }));
    await apiPost('/auth/login', {});
    expect((fetchMock.mock.calls[1]?.[1]?.headers as Record<string, string>)['X-Cart-Token']).toBe('c_new');
    forgetCartToken();
    fetchMock.mockResolvedValueOnce(respond(200, { errCode: '00', errMsg: '', data: {} }));
    await apiGet('/cart');
    expect((fetchMock.mock.calls[2]?.[1]?.headers as Record<string, string>)['X-Cart-Token']).toBeUndefined();
    off();
    expect(changes).toEqual(['c_new', null]);
  });

  it('never takes a token from the answer to a logged-in request', async () => {
    setAuthTokenGetter(() => 'user-token');
    setCartToken(null);
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ errCode: '00', errMsg: '', data: {} }), { status: 200, headers: { 'X-Cart-Token': 'c_other' } }),
    );
    await apiGet('/cart');
    expect(getCartToken()).toBeNull();
  });
});
