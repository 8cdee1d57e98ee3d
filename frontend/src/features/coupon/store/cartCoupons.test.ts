import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearApiCache } from '@/lib/api';
import { makeCartCoupons, makeOption } from '@/test/couponFixtures';
import { mockApi } from '@/test/mockApi';
import { useCartCoupons } from './cartCoupons';

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

beforeEach(() => {
  clearApiCache();
  useCartCoupons.getState().reset();
});
afterEach(() => vi.unstubAllGlobals());

describe('the cart coupons store', () => {
  it('reads once per cart version, and again when forced', async () => {
    let reads = 0;
    mockApi({ 'GET /cart/coupons': () => (reads += 1, makeCartCoupons({ usable: [makeOption()] })) });
    await useCartCoupons.getState().load(3);
    await useCartCoupons.getState().load(3);
    expect(reads).toBe(1);
    expect(useCartCoupons.getState()).toMatchObject({ version: 3, loading: false, error: null });
    expect(useCartCoupons.getState().data?.usable).toHaveLength(1);
    await useCartCoupons.getState().load(3, true);
    expect(reads).toBe(2);
    await useCartCoupons.getState().load(4);
    expect(reads).toBe(3);
    expect(useCartCoupons.getState().version).toBe(4);
  });

  it('drops the answer for an older version that arrives after a newer one was asked', async () => {
    const first = deferred<undefined>();
    const envelope = (applied: string[]) => new Response(JSON.stringify({ errCode: '00', errMsg: '', data: makeCartCoupons({ applied }) }), { status: 200 });
    let n = 0;
    // The first answer comes late (and ignores the abort, as a slow network may).
    vi.stubGlobal('fetch', async () => {
      n += 1;
      if (n === 1) {
        await first.promise;
        return envelope(['OLD']);
      }
      return envelope(['NEW']);
    });
    const old = useCartCoupons.getState().load(5);
    await useCartCoupons.getState().load(6);
    first.resolve(undefined);
    await old;
    expect(useCartCoupons.getState().version).toBe(6);
    expect(useCartCoupons.getState().data?.applied).toEqual(['NEW']);
  });

  it('keeps the failure to show, and forgets everything on reset', async () => {
    mockApi({ 'GET /cart/coupons': () => ({ status: 500, body: { errCode: '500', errMsg: '服务器异常', data: null } }) });
    await useCartCoupons.getState().load(1);
    expect(useCartCoupons.getState().error).not.toBeNull();
    useCartCoupons.getState().reset();
    expect(useCartCoupons.getState()).toMatchObject({ version: null, data: null, error: null, loading: false });
  });
});
