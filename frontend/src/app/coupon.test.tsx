import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useI18n } from '@/lib/i18n';
import { makeMe } from '@/test/fixtures';
import { makeCoupon, makeOffer } from '@/test/couponFixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';

const me = makeMe({ isRemindAgain: true });
const json = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : null);
const page = (list: unknown[]) => ({ list, page: 1, pageSize: 20, total: list.length, hasMore: false });

const AVAILABLE = [
  makeCoupon(),
  makeCoupon({ couponCode: 'C0002', templateCode: 'T_FEE', name: '免配送费', kind: 'freeDelivery', ruleText: '免配送费', expiringSoon: true, transferable: false }),
  makeCoupon({ couponCode: 'C0003', status: 'locked', statusLabel: '下单中', orderNo: 'PO2026112400001' }),
];
const USED = [makeCoupon({ couponCode: 'C0004', status: 'used', statusLabel: '已使用', orderNo: 'PO2026112000007' })];

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /me': () => me,
    'GET /coupons': (url) => page(url.searchParams.get('status') === 'used' ? USED : url.searchParams.get('status') === 'expired' ? [] : AVAILABLE),
    'GET /coupons/offers': () => [
      makeOffer(),
      makeOffer({ ruleId: 'T_LIMITED', name: '限量满50减10', ruleText: '满50减10', remaining: 0, canCollect: false }),
      makeOffer({ ruleId: 'T_ONCE', name: '新人免配送费', ruleText: '免配送费', collected: 1, canCollect: false }),
    ],
    ...over,
  });
}

function logIn() {
  act(() => useAccount.getState().signIn({ token: 'tok-9', expiresAt: 0, newUser: false, user: me }));
}

beforeEach(() => {
  resetApp();
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  vi.unstubAllGlobals();
});

describe('/my/coupon/list', () => {
  it('shows a visitor what logging in gives, with a button to /login', async () => {
    api();
    renderApp('/my/coupon/list');
    expect(await screen.findByTestId('visitor-state')).toHaveTextContent('登录后查看、领取和兑换优惠券');
    await userEvent.click(screen.getByTestId('visitor-login'));
    await waitFor(() => expect(pathNow()).toBe('/login'));
  });

  it('lists the available coupons with their rule, scope, validity, the expiring and locked ones marked', async () => {
    api();
    logIn();
    renderApp('/my/coupon/list');
    const first = await screen.findByTestId('coupon-C0001');
    expect(first).toHaveTextContent('满100减20');
    expect(first).toHaveTextContent('适用：全部商品');
    expect(first).toHaveTextContent('2026/11/01 至 2026/11/30');
    expect(within(first).getByTestId('coupon-C0001-transfer')).toBeInTheDocument();
    expect(screen.getByTestId('coupon-C0002-soon')).toHaveTextContent('即将过期');
    // Not transferable: no transfer button.
    expect(screen.queryByTestId('coupon-C0002-transfer')).toBeNull();
    // Held by an order: its label, the order, and no transfer.
    expect(screen.getByTestId('coupon-C0003-status')).toHaveTextContent('下单中 · 订单 PO2026112400001');
    expect(screen.queryByTestId('coupon-C0003-transfer')).toBeNull();
  });

  it('switches tabs (kept in the address) and shows an empty state', async () => {
    const { calls } = api();
    logIn();
    renderApp('/my/coupon/list');
    await screen.findByTestId('coupon-C0001');
    await userEvent.click(screen.getByTestId('coupon-tab-used'));
    expect(await screen.findByTestId('coupon-C0004-status')).toHaveTextContent('已使用');
    expect(pathNow()).toBe('/my/coupon/list?status=used');
    await userEvent.click(screen.getByTestId('coupon-tab-expired'));
    expect(await screen.findByTestId('coupon-empty')).toHaveTextContent('没有过期的优惠券');
    expect(calls.filter((c) => c.url.pathname.endsWith('/coupons')).map((c) => c.url.searchParams.get('status'))).toEqual(['available', 'used', 'expired']);
  });

  it('exchanges a code and shows the one refusal text, and how long to wait after too many tries', async () => {
    let tries = 0;
    api({
      'POST /coupons/exchange': (_url, init) => {
        tries += 1;
        expect(json(init)).toEqual({ code: tries === 3 ? 'PIZZA-2026-WELCOME-01' : 'NOPE-NOPE-NOPE' });
        if (tries === 1) return { status: 400, body: { errCode: '400', errMsg: '兑换码无效或已使用', data: null } };
        if (tries === 2) return { status: 429, body: { errCode: '429', errMsg: '请求过于频繁', data: { retryAfterSeconds: 42 } } };
        return makeCoupon({ couponCode: 'C0100', name: '兑换 可乐' });
      },
    });
    logIn();
    renderApp('/my/coupon/list');
    await screen.findByTestId('coupon-C0001');
    const input = screen.getByTestId('coupon-exchange-input');
    await userEvent.type(input, 'NOPE-NOPE-NOPE');
    await userEvent.click(screen.getByTestId('coupon-exchange-submit'));
    expect(await screen.findByTestId('coupon-exchange-error')).toHaveTextContent('兑换码无效或已使用');
    await userEvent.click(screen.getByTestId('coupon-exchange-submit'));
    await waitFor(() => expect(screen.getByTestId('coupon-exchange-error')).toHaveTextContent('尝试次数过多，请42秒后再试'));
    await userEvent.clear(input);
    await userEvent.type(input, 'PIZZA-2026-WELCOME-01');
    await userEvent.click(screen.getByTestId('coupon-exchange-submit'));
    expect(await screen.findByText('兑换成功：兑换 可乐')).toBeInTheDocument();
    expect(screen.queryByTestId('coupon-exchange-error')).toBeNull();
    expect(input).toHaveValue('');
  });

  it('gives a coupon to a phone number: checks the number, shows the refusal, then the masked phone', async () => {
    const sent: unknown[] = [];
    api({
      'POST /coupons/:code/transfer': (url, init) => {
        sent.push([url.pathname, json(init)]);
        if (sent.length === 1) return { status: 400, body: { errCode: '400', errMsg: '该手机号尚未注册', data: null } };
        return { couponCode: 'C0001', to: '139****0002' };
      },
    });
    logIn();
    renderApp('/my/coupon/list');
    await userEvent.click(await screen.findByTestId('coupon-C0001-transfer'));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('coupon-transfer-phone'), '1390000');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认转赠' }));
    expect(within(dialog).getByTestId('coupon-transfer-error')).toHaveTextContent('请输入11位手机号');
    expect(sent).toEqual([]);
    await userEvent.type(within(dialog).getByTestId('coupon-transfer-phone'), '0002');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认转赠' }));
    expect(await within(dialog).findByTestId('coupon-transfer-error')).toHaveTextContent('该手机号尚未注册');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认转赠' }));
    expect(await screen.findByTestId('coupon-transfer-done')).toHaveTextContent('已转赠给 139****0002');
    expect(sent[1]).toEqual(['/api/v1/coupons/C0001/transfer', { cellPhone: '13900000002' }]);
    await userEvent.click(screen.getByRole('button', { name: '我知道了' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers coupons to collect: 领取 while it can be, 已领完 and 已领取 otherwise; collecting reads the list again', async () => {
    let reads = 0;
    api({
      'GET /coupons': () => {
        reads += 1;
        return page(AVAILABLE);
      },
      'POST /coupons/collect/:ruleId': (url) => {
        expect(url.pathname).toBe('/api/v1/coupons/collect/T_CASH_100_20');
        return makeCoupon({ couponCode: 'C0200' });
      },
    });
    logIn();
    renderApp('/my/coupon/list');
    const offers = await screen.findByTestId('coupon-offers');
    expect(within(offers).getByTestId('offer-T_LIMITED-collect')).toHaveTextContent('已领完');
    expect(within(offers).getByTestId('offer-T_LIMITED-collect')).toBeDisabled();
    expect(within(offers).getByTestId('offer-T_ONCE-collect')).toHaveTextContent('已领取');
    const collect = within(offers).getByTestId('offer-T_CASH_100_20-collect');
    expect(collect).toHaveTextContent('领取');
    const before = reads;
    await userEvent.click(collect);
    expect(await screen.findByText('领取成功：满100减20')).toBeInTheDocument();
    await waitFor(() => expect(reads).toBe(before + 1));
  });

  it('loads the next page on demand and says when that is all', async () => {
    const pages: Record<string, unknown> = {
      '1': { list: [makeCoupon({ couponCode: 'P1' })], page: 1, pageSize: 1, total: 2, hasMore: true },
      '2': { list: [makeCoupon({ couponCode: 'P2' })], page: 2, pageSize: 1, total: 2, hasMore: false },
    };
    api({ 'GET /coupons': (url) => pages[url.searchParams.get('page') ?? '1'] });
    logIn();
    renderApp('/my/coupon/list');
    await screen.findByTestId('coupon-P1');
    await userEvent.click(screen.getByTestId('coupon-more'));
    expect(await screen.findByTestId('coupon-P2')).toBeInTheDocument();
    expect(screen.getByTestId('coupon-P1')).toBeInTheDocument();
    expect(screen.queryByTestId('coupon-more')).toBeNull();
    expect(screen.getByText('没有更多了')).toBeInTheDocument();
  });

  it('reads in English with English words', async () => {
    api();
    logIn();
    act(() => useI18n.getState().setLang('en'));
    renderApp('/my/coupon/list');
    await screen.findByTestId('coupon-C0001');
    expect(screen.getByTestId('coupon-tab-available')).toHaveTextContent('Available');
    expect(screen.getByTestId('coupon-C0003-status')).toHaveTextContent('Order PO2026112400001');
    expect(screen.getByTestId('coupon-exchange')).toHaveTextContent('Redeem a code');
    expect(screen.getByTestId('coupon-offers')).toHaveTextContent('Coupons to collect');
  });

  it('is reached from /my', async () => {
    api();
    logIn();
    renderApp('/my');
    await userEvent.click(await screen.findByTestId('entry-coupons'));
    await waitFor(() => expect(pathNow()).toBe('/my/coupon/list'));
  });

  it('is reached from the side navigation by a logged-in customer', async () => {
    api();
    logIn();
    renderApp('/');
    await userEvent.click(await screen.findByTestId('open-nav'));
    await act(async () => {
      await userEvent.click(within(screen.getByTestId('side-nav')).getByTestId('nav-coupons'));
    });
    expect(pathNow()).toBe('/my/coupon/list');
    expect(await screen.findByTestId('coupon-C0001')).toBeInTheDocument();
  });
});
