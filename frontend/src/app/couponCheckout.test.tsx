import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useSelectedAddress } from '@/features/address';
import { useCartCoupons } from '@/features/coupon';
import type { Cart, CartCoupons } from '@/lib/api/types';
import { makeAddress, makeCart, makeMe } from '@/test/fixtures';
import { makeCartCoupons, makeCouponItem, makeOption } from '@/test/couponFixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';

const me = makeMe({ isRemindAgain: true });
const json = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : null);

const CASH = makeOption({ couponCode: 'A', templateCode: 'T_CASH', name: '满100减20', ruleText: '满100减20', alone: 20 });
const PCT = makeOption({ couponCode: 'B', templateCode: 'T_PCT', name: '比萨8折', kind: 'percentOff', ruleText: '8折，最多减¥30', alone: 19.8 });
const SIDE = makeOption({ couponCode: 'D', templateCode: 'T_SIDE', name: '¥9.9换购芝士条', kind: 'productAtPrice', ruleText: '¥9.9换购 芝士条', alone: 9.1 });
const FAR = makeOption({ couponCode: 'E', templateCode: 'T_BIG', name: '满300减60', ruleText: '满300减60', alone: 0, reason: { code: 'belowThreshold', text: '再买¥193.00可用' } });
const MUTEX = [{ couponMutexDetails: [{ ruleId: 'T_CASH' }, { ruleId: 'T_PCT' }] }];

/** The cart with `applied` coupons: ¥107 − ¥19.80 promotion − coupons + ¥6 fee. */
function cartWith(applied: string[], couponOff: number, version: number, over: Partial<Cart> = {}): Cart {
  return makeCart({
    shoppingCarVersion: version,
    osCoupons: applied,
    couponDiscountsAmount: couponOff,
    couponDeliveryFee: 0,
    cashCouponAmount: couponOff,
    couponMutexBeans: MUTEX,
    orderAmount: Math.round((93.2 - couponOff) * 100) / 100,
    ...over,
  });
}

function coupons(applied: string[], auto: boolean): CartCoupons {
  const mark = (o: typeof CASH) => ({ ...o, applied: applied.includes(o.couponCode), saved: applied.includes(o.couponCode) ? o.alone : 0 });
  const usable = [CASH, PCT, SIDE].map(mark);
  const mutexed = applied.includes('A') ? usable.filter((o) => o.couponCode === 'B').map((o) => ({ ...o, reason: { code: 'mutex', text: '与满100减20不可同时使用' } })) : [];
  return makeCartCoupons({
    usable: usable.filter((o) => !mutexed.some((m) => m.couponCode === o.couponCode)),
    unusable: [...mutexed, FAR],
    applied,
    auto,
    couponDiscountsAmount: applied.includes('A') ? 20 : applied.includes('B') ? 19.8 : 0,
  });
}

function api(over: Record<string, Handler> = {}) {
  let state = { applied: ['A'], auto: true, version: 5 };
  const posts: unknown[] = [];
  const cart = () => cartWith(state.applied, state.applied.includes('A') ? 20 : state.applied.includes('B') ? 19.8 : 0, state.version);
  const mock = mockAppApi({
    'GET /me': () => me,
    'GET /addresses': () => [makeAddress({ isDefault: true })],
    'GET /cart': () => cart(),
    'POST /cart/verify': () => ({ skipped: false, cart: cart() }),
    'GET /orders/reservation/slots': () => ({ asap: 0, days: [] }),
    'GET /cart/coupons': () => coupons(state.applied, state.auto),
    'POST /cart/coupons': (_u, init) => {
      const body = json(init) as { couponCodes: string[]; none?: boolean };
      posts.push(body);
      state = body.none ? { applied: [], auto: false, version: state.version + 1 } : body.couponCodes.length === 0 ? { applied: ['A'], auto: true, version: state.version + 1 } : { applied: body.couponCodes, auto: false, version: state.version + 1 };
      return cart();
    },
    ...over,
  });
  return { ...mock, posts };
}

beforeEach(() => {
  resetApp();
  useCartCoupons.getState().reset();
  act(() => useAccount.getState().signIn({ token: 'tok-9', expiresAt: 0, newUser: false, user: me }));
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  useSelectedAddress.getState().clear();
  vi.unstubAllGlobals();
});

describe('checkout coupons', () => {
  it('shows the applied coupon and its saving in the row, the amounts and the bar', async () => {
    api();
    renderApp('/order/submit');
    const row = await screen.findByTestId('checkout-coupons');
    await waitFor(() => expect(row).toHaveTextContent('满100减20'));
    expect(row).toHaveTextContent('-¥20.00');
    expect(row).toHaveAttribute('data-applied', '1');
    // Saved: the promotion's ¥19.80 and the coupon's ¥20.00.
    expect(screen.getByText('已优惠¥39.80', { exact: false })).toBeInTheDocument();
  });

  it('says how many could apply when none is applied', async () => {
    api({ 'GET /cart': () => cartWith([], 0, 5), 'POST /cart/verify': () => ({ skipped: false, cart: cartWith([], 0, 5) }), 'GET /cart/coupons': () => coupons([], false) });
    renderApp('/order/submit');
    const row = await screen.findByTestId('checkout-coupons');
    await waitFor(() => expect(row).toHaveTextContent('3张可用'));
  });

  it('opens the picker: usable with what each saves (applied ticked), unusable with the reason, the exclusion explained', async () => {
    api();
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-coupons'));
    const picker = await screen.findByTestId('coupon-picker');
    expect(picker).toHaveAttribute('data-auto', 'true');
    expect(within(picker).getByTestId('coupon-option-A')).toHaveAttribute('aria-checked', 'true');
    expect(within(picker).getByTestId('coupon-option-A-save')).toHaveTextContent('本单省¥20.00');
    expect(within(picker).getByTestId('coupon-option-D-save')).toHaveTextContent('可省¥9.10');
    expect(within(picker).getByTestId('coupon-option-D')).toHaveTextContent('选用后商品加入订单');
    expect(within(picker).getByTestId('coupon-option-B-why')).toHaveTextContent('与满100减20不可同时使用');
    expect(within(picker).getByTestId('coupon-option-E-why')).toHaveTextContent('再买¥193.00可用');
    expect(within(picker).getByTestId('coupon-option-E')).toBeDisabled();
    expect(within(picker).getByTestId('coupon-mutex')).toHaveTextContent('满100减20与比萨8折不可同时使用');
    expect(within(picker).getByTestId('coupon-picker-sum')).toHaveTextContent('已选1张，共省¥20.00 · 已为您选择最优组合');
  });

  it('asks the server for each choice and shows its answer: another coupon, none, the best again', async () => {
    const { posts } = api();
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-coupons'));
    const picker = await screen.findByTestId('coupon-picker');
    // 8折 is set aside for 满100减20: choosing it replaces that one.
    await userEvent.click(within(picker).getByTestId('coupon-option-B'));
    await waitFor(() => expect(within(screen.getByTestId('coupon-picker')).getByTestId('coupon-option-B')).toHaveAttribute('aria-checked', 'true'));
    expect(posts).toEqual([{ couponCodes: ['B'] }]);
    expect(screen.getByTestId('checkout-coupons')).toHaveTextContent('-¥19.80');
    await userEvent.click(within(screen.getByTestId('coupon-picker')).getByTestId('coupon-none'));
    await waitFor(() => expect(screen.getByTestId('coupon-picker-sum')).toHaveTextContent('当前未使用优惠券'));
    expect(screen.getByTestId('coupon-none')).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByTestId('coupon-auto'));
    await waitFor(() => expect(screen.getByTestId('coupon-auto')).toHaveAttribute('aria-pressed', 'true'));
    expect(posts).toEqual([{ couponCodes: ['B'] }, { couponCodes: [], none: true }, { couponCodes: [] }]);
    await userEvent.click(screen.getByTestId('coupon-picker-done'));
    expect(screen.queryByTestId('coupon-picker')).toBeNull();
  });

  it('shows the server refusal of a choice, the cart unchanged', async () => {
    api({ 'POST /cart/coupons': () => ({ status: 409, body: { errCode: '-8', errMsg: '满100减20：仅限外送订单使用', data: null } }) });
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-coupons'));
    await userEvent.click(within(await screen.findByTestId('coupon-picker')).getByTestId('coupon-option-A'));
    expect(await screen.findByText('满100减20：仅限外送订单使用')).toBeInTheDocument();
    expect(screen.getByTestId('coupon-option-A')).toHaveAttribute('aria-checked', 'true');
  });

  it('adds a product coupon as a coupon item, listed with its coupon price and tag', async () => {
    let added: unknown = null;
    const withItem = cartWith(['A', 'D'], 20, 6, { couponItems: [makeCouponItem({ couponCode: 'D' })] });
    api({
      'POST /cart/coupon-items': (_u, init) => {
        added = json(init);
        return withItem;
      },
    });
    renderApp('/order/submit');
    await userEvent.click(await screen.findByTestId('checkout-coupons'));
    await userEvent.click(within(await screen.findByTestId('coupon-picker')).getByTestId('coupon-option-D'));
    await waitFor(() => expect(added).toEqual({ couponCode: 'D' }));
    const item = await screen.findByTestId('cart-coupon-item-D');
    expect(item).toHaveTextContent('券 芝士条');
    expect(item).toHaveTextContent('¥9.90');
    expect(item).toHaveTextContent('¥19.00');
  });

  it('submits the coupons the cart applied as osCoupons', async () => {
    let order: Record<string, unknown> | null = null;
    api({
      'POST /orders': (_u, init) => {
        order = json(init) as Record<string, unknown>;
        return { orderNo: 'P20261124009', orderId: 9, orderAmount: 73.2, payable: 73.2, paymentType: 'offline', state: 7, orderType: 0, orderTime: 0 };
      },
      'GET /orders/:no': () => ({ status: 404, body: { errCode: '404', errMsg: 'x', data: null } }),
    });
    renderApp('/order/submit');
    await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路'));
    await waitFor(() => expect(screen.getByTestId('checkout-coupons')).toHaveTextContent('-¥20.00'));
    await userEvent.click(screen.getByTestId('checkout-pay-offline'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P20261124009'));
    expect(order).toMatchObject({ osCoupons: ['A'], orderAmount: 73.2 });
  });
});
