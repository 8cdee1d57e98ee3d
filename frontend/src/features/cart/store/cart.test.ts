import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearApiCache, getCartToken, setCartToken } from '@/lib/api';
import { resetSockets } from '@/lib/socket';
import { emptyCart, makeCart } from '@/test/fixtures';
import { lastSocket, resetFakeSockets } from '@/test/fakeSocket';
import { mockApi } from '@/test/mockApi';
import { resetCart, startCartLive, useCart } from './cart';

function body(init?: RequestInit): unknown {
  return init?.body ? JSON.parse(String(init.body)) : null;
}

/** A promise the test settles: holds a server answer back. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(() => {
  clearApiCache();
  resetCart();
  resetSockets();
  resetFakeSockets();
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetSockets();
});

describe('reading the cart', () => {
  it('asks GET /cart with the page and store, keeps the visitor token and sends it afterwards', async () => {
    const { calls } = mockApi({
      'GET /cart': () => emptyCart({ cartToken: 'c_abc' }),
      'POST /cart/items': () => makeCart({ cartToken: 'c_abc', shoppingCarVersion: 2 }),
    });
    expect(useCart.getState().status).toBe('idle');
    const cart = await useCart.getState().load({ pageName: 'menu', storeCode: 'SH001' });
    expect(cart?.shoppingCarVersion).toBe(1);
    expect(calls[0]?.url.searchParams.get('pageName')).toBe('menu');
    expect(calls[0]?.url.searchParams.get('storeCode')).toBe('SH001');
    expect(calls[0]?.headers['X-Cart-Token']).toBeUndefined();
    expect(getCartToken()).toBe('c_abc');
    expect(window.localStorage.getItem('pz:cart:token')).toContain('c_abc');
    await useCart.getState().add([{ productCode: 'DR002', selection: sel() }]);
    expect(calls[1]?.headers['X-Cart-Token']).toBe('c_abc');
    expect(useCart.getState().status).toBe('ready');
  });

  it('fails the screen on a first read only; a failed re-read keeps the cart shown', async () => {
    let fail = true;
    mockApi({ 'GET /cart': () => (fail ? { status: 500, body: { errCode: '500', errMsg: 'x', data: null } } : makeCart()) });
    await useCart.getState().load();
    expect(useCart.getState().status).toBe('error');
    fail = false;
    await useCart.getState().load();
    expect(useCart.getState().cart?.items).toHaveLength(2);
    fail = true;
    await useCart.getState().load();
    expect(useCart.getState().status).toBe('ready');
    expect(useCart.getState().cart?.items).toHaveLength(2);
  });

  it('drops a read answering an older version than the cart shown', async () => {
    mockApi({ 'GET /cart': () => makeCart({ shoppingCarVersion: 4 }) });
    useCart.getState().adopt(makeCart({ shoppingCarVersion: 5, totalQuantity: 7 }));
    await useCart.getState().load();
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(5);
    // After a login the user's cart counts whatever its version.
    await useCart.getState().load({ force: true });
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(4);
  });
});

describe('cart actions', () => {
  it('blocks an overlapping action (double tap) until the first one answers', async () => {
    let held = deferred<unknown>();
    const fetchMock = vi.fn(async () => {
      const data = await held.promise;
      return new Response(JSON.stringify({ errCode: '00', errMsg: '', data }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    const first = useCart.getState().add([{ productCode: 'DR002', selection: sel() }]);
    expect(useCart.getState().busy).toBe(true);
    const second = await useCart.getState().add([{ productCode: 'DR002', selection: sel() }]);
    expect(second).toEqual({ ok: false, blocked: true });
    const third = await useCart.getState().increase('l_1');
    expect(third.ok).toBe(false);
    held.resolve(makeCart());
    await expect(first).resolves.toMatchObject({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(useCart.getState().busy).toBe(false);
    // Free again.
    held = deferred<unknown>();
    held.resolve(makeCart());
    await expect(useCart.getState().clean()).resolves.toMatchObject({ ok: true });
  });

  it('sends each action as the contract says', async () => {
    const seen: { route: string; body: unknown }[] = [];
    const record = (route: string) => (_u: URL, init?: RequestInit) => {
      seen.push({ route, body: body(init) });
      return makeCart({ shoppingCarVersion: seen.length + 3 });
    };
    mockApi({
      'POST /cart/items': record('POST /cart/items'),
      'PATCH /cart/items': record('PATCH /cart/items'),
      'DELETE /cart/items': record('DELETE /cart/items'),
      'DELETE /cart': record('DELETE /cart'),
      'POST /cart/rules': record('POST /cart/rules'),
      'POST /cart/clear-unavailable': record('POST /cart/clear-unavailable'),
      'POST /orders/reservation': record('POST /orders/reservation'),
      'POST /cart/verify': (_u, init) => {
        seen.push({ route: 'POST /cart/verify', body: body(init) });
        return { skipped: false, cart: makeCart({ shoppingCarVersion: 20 }) };
      },
    });
    const s = useCart.getState();
    await s.add([{ productCode: 'PZ001', selection: sel({ sizeCode: '12' }) }], { storeCode: 'SH001', serviceMethod: 1 });
    await s.increase('l_1');
    await s.decrease('l_1');
    await s.setQuantity('l_1', 3);
    await s.remove(['l_1', 'l_2']);
    await s.clean();
    await s.chooseRule('R001');
    await s.clearUnavailable();
    await s.reserve({ orderType: 0, storeCode: 'SH001', isBookOrder: true, orderTime: 1 });
    const verified = await s.verify('orderSubmit');
    expect(seen).toEqual([
      { route: 'POST /cart/items', body: { storeCode: 'SH001', serviceMethod: 1, items: [{ productCode: 'PZ001', selection: sel({ sizeCode: '12' }) }] } },
      { route: 'PATCH /cart/items', body: { items: [{ id: 'l_1', action: 'increase' }] } },
      { route: 'PATCH /cart/items', body: { items: [{ id: 'l_1', action: 'decrease' }] } },
      { route: 'PATCH /cart/items', body: { items: [{ id: 'l_1', action: 'quantity', quantity: 3 }] } },
      { route: 'DELETE /cart/items', body: { items: [{ id: 'l_1' }, { id: 'l_2' }] } },
      { route: 'DELETE /cart', body: null },
      { route: 'POST /cart/rules', body: { ruleId: 'R001' } },
      { route: 'POST /cart/clear-unavailable', body: null },
      { route: 'POST /orders/reservation', body: { orderType: 0, storeCode: 'SH001', isBookOrder: true, orderTime: 1 } },
      { route: 'POST /cart/verify', body: { pageType: 'orderSubmit' } },
    ]);
    expect(verified.ok).toBe(true);
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(20);
  });

  it('answers the server refusal, and shows a fresh cart an error still carries', async () => {
    mockApi({
      'POST /cart/items': () => ({ status: 400, body: { errCode: '400', errMsg: '该商品暂不可售', data: null } }),
      'POST /cart/verify': () => ({ status: 400, body: { errCode: '-20', errMsg: '购物车中没有有效商品', data: makeCart({ items: [], shoppingCarVersion: 9 }) } }),
    });
    const r = await useCart.getState().add([{ productCode: 'SD010', selection: sel() }]);
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && !r.blocked && r.error.message).toBe('该商品暂不可售');
    const v = await useCart.getState().verify('orderSubmit');
    expect(!v.ok && !v.blocked && v.error.message).toBe('购物车中没有有效商品');
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(9);
  });
});

describe('login and logout', () => {
  it('after a login forgets the visitor token and re-reads the merged cart', async () => {
    const { calls } = mockApi({ 'GET /cart': () => makeCart({ shoppingCarVersion: 1, cartToken: null }) });
    setCartToken('c_visitor');
    useCart.getState().adopt(makeCart({ shoppingCarVersion: 8 }));
    await useCart.getState().afterLogin();
    expect(getCartToken()).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers['X-Cart-Token']).toBeUndefined();
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(1);
  });

  it('reads nothing after a login when no cart was shown yet', async () => {
    const { calls } = mockApi({});
    setCartToken('c_visitor');
    await useCart.getState().afterLogin();
    expect(getCartToken()).toBeNull();
    expect(calls).toHaveLength(0);
  });
});

describe('live cart', () => {
  it('re-reads on cart:updated above our version and on a resync, not for an older event', async () => {
    const { calls } = mockApi({ 'GET /cart': () => makeCart({ shoppingCarVersion: 7 }) });
    useCart.getState().adopt(makeCart({ shoppingCarVersion: 5 }));
    const stop = startCartLive();
    const stopAgain = startCartLive();
    const socket = lastSocket('/');
    socket.serverEmit('cart:updated', { version: 5 });
    expect(calls).toHaveLength(0);
    socket.serverEmit('cart:updated', { version: 7 });
    await vi.waitFor(() => expect(useCart.getState().cart?.shoppingCarVersion).toBe(7));
    expect(calls).toHaveLength(1);
    socket.serverConnect();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    stop();
    // One screen still shows the cart.
    socket.serverEmit('cart:updated', { version: 8 });
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    stopAgain();
    socket.serverEmit('cart:updated', { version: 9 });
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toHaveLength(3);
    expect(socket.listenerCount('cart:updated')).toBe(0);
  });

  it('announced while an action is in flight: re-read once it answers', async () => {
    const held = deferred<unknown>();
    let reads = 0;
    mockApi({ 'GET /cart': () => (reads += 1, makeCart({ shoppingCarVersion: 12 })) });
    const fetchMock = vi.mocked(fetch);
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if ((init?.method ?? 'GET') === 'PATCH') {
        const data = await held.promise;
        return new Response(JSON.stringify({ errCode: '00', errMsg: '', data }), { status: 200 });
      }
      return original ? original(input, init) : new Response('');
    });
    useCart.getState().adopt(makeCart({ shoppingCarVersion: 5 }));
    const stop = startCartLive();
    const pending = useCart.getState().increase('l_1');
    lastSocket('/').serverEmit('cart:updated', { version: 11 });
    expect(reads).toBe(0);
    held.resolve(makeCart({ shoppingCarVersion: 6 }));
    await pending;
    await vi.waitFor(() => expect(useCart.getState().cart?.shoppingCarVersion).toBe(12));
    expect(reads).toBe(1);
    stop();
  });
});

function sel(over: Record<string, unknown> = {}) {
  return { sizeCode: null, pastryCode: null, flavorCodes: [], sauceCode: null, removedBase: [], extras: {}, combo: {}, quantity: 1, ...over };
}

describe('reads replacing reads', () => {
  it('a newer read replaces one in flight, and inherits its force (login)', async () => {
    let n = 0;
    const answers = [deferred<unknown>(), deferred<unknown>()];
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const mine = answers[n];
      n += 1;
      const data = await new Promise((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        void mine?.promise.then(resolve);
      });
      return new Response(JSON.stringify({ errCode: '00', errMsg: '', data }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    useCart.getState().adopt(makeCart({ shoppingCarVersion: 30 }));
    const forced = useCart.getState().load({ force: true });
    const plain = useCart.getState().load();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await expect(forced).resolves.toMatchObject({ shoppingCarVersion: 30 });
    answers[1]?.resolve(makeCart({ shoppingCarVersion: 2 }));
    await expect(plain).resolves.toMatchObject({ shoppingCarVersion: 2 });
  });
});
