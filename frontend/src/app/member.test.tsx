import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useSelectedAddress } from '@/features/address';
import { useI18n } from '@/lib/i18n';
import type { Cart } from '@/lib/api/types';
import { makeAddress, makeBreakdown, makeCart, makeMe, makeOrder } from '@/test/fixtures';
import { LEVELS, NON_MEMBER, RULE, makeEntry, makeGift, makeMember } from '@/test/memberFixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';

const me = makeMe({ isRemindAgain: true });
const json = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : null);

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /me': () => me,
    'GET /members/me': () => makeMember(),
    'GET /members/levels': () => LEVELS,
    'GET /members/gifts': () => [makeGift()],
    'GET /members/levels/history': () => [{ fromLevel: null, toLevel: 1, reason: 'join', at: Date.parse('2026-11-20T02:00:00Z') }],
    'GET /points/deduction-rule': () => RULE,
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
  useSelectedAddress.getState().clear();
  vi.unstubAllGlobals();
});

describe('who may see the member pages', () => {
  it.each(['/my/member/index', '/my/integral/list', '/addMember', '/my/member/memberSelectGift'])(
    'shows a visitor on %s what logging in gives, with a button to /login (only order submit requires login)',
    async (path) => {
      api();
      renderApp(path);
      expect(await screen.findByTestId('visitor-state')).toHaveTextContent('登录后加入会员');
      expect(pathNow()).toBe(path);
      await userEvent.click(screen.getByTestId('visitor-login'));
      await waitFor(() => expect(pathNow()).toBe('/login'));
    },
  );

  it('lets a visitor read the points-deduction guide, which needs no account', async () => {
    api({ 'GET /points/deduction-rule': () => ({ pointsPerYuan: 100, maxShareOfOrder: 0.5, minPoints: 100 }) });
    renderApp('/memberPointdeduction');
    await waitFor(() => expect(screen.queryByTestId('visitor-state')).toBeNull());
    expect(pathNow()).toBe('/memberPointdeduction');
  });

  it('shows a non-member the invitation instead of points, and it leads to /addMember', async () => {
    api({ 'GET /members/me': () => NON_MEMBER, 'GET /members/agreement': () => ({ version: '2026-11', title: '会员协议', content: '第一条' }) });
    logIn();
    renderApp('/my/integral/list');
    await userEvent.click(await screen.findByTestId('member-invite-join'));
    await waitFor(() => expect(pathNow()).toBe('/addMember'));
  });

  it('shows the invitation on /my for a non-member and the level and points for a member', async () => {
    api({ 'GET /members/me': () => NON_MEMBER });
    logIn();
    const first = renderApp('/my');
    expect(await screen.findByTestId('member-invite')).toHaveTextContent('加入会员');
    first.unmount();
    resetApp();
    api();
    logIn();
    renderApp('/my');
    expect(await screen.findByTestId('my-member-level')).toHaveTextContent('Lv1普卡会员');
    expect(screen.getByTestId('my-member-points')).toHaveTextContent('1280');
    await userEvent.click(screen.getByTestId('my-member-centre'));
    await waitFor(() => expect(pathNow()).toBe('/my/member/index'));
  });
});

describe('the member chunk', () => {
  it('titles its pages itself, in the language shown', async () => {
    api();
    logIn();
    renderApp('/my/integral/list');
    await screen.findByTestId('points-summary');
    await waitFor(() => expect(document.title).toBe('积分明细 · 比萨快送'));
    act(() => useI18n.setState({ lang: 'en' }));
    await waitFor(() => expect(document.title).toBe('Points detail · Pizza Dash'));
  });

  it('sends an unknown member path to the member centre', async () => {
    api();
    logIn();
    renderApp('/my/member/taskCenter');
    await waitFor(() => expect(pathNow()).toBe('/my/member/index'));
    expect(await screen.findByTestId('member-card')).toBeInTheDocument();
  });
});

describe('/addMember', () => {
  it('shows the agreement, refuses without the tick, joins with its version, then offers the welcome gift', async () => {
    let joined: unknown = null;
    let member = false;
    api({
      'GET /members/me': () => (member ? makeMember() : NON_MEMBER),
      'GET /members/agreement': () => ({ version: '2026-11', title: '会员协议', content: '第一条 积分规则\n第二条 等级规则' }),
      'POST /members/join': (_u, init) => {
        joined = json(init);
        member = true;
        return makeMember();
      },
    });
    logIn();
    renderApp('/addMember');
    const agreement = await screen.findByTestId('member-agreement');
    expect(agreement).toHaveAttribute('data-version', '2026-11');
    expect(screen.getByTestId('member-agreement-text')).toHaveTextContent('第二条 等级规则');
    await userEvent.click(screen.getByTestId('member-join'));
    expect(screen.getByTestId('member-accept-error')).toHaveTextContent('请阅读并同意会员协议');
    expect(joined).toBeNull();
    await userEvent.click(screen.getByTestId('member-accept'));
    await userEvent.click(screen.getByTestId('member-join'));
    await waitFor(() => expect(pathNow()).toBe('/my/member/memberSelectGift'));
    expect(joined).toEqual({ agreementVersion: '2026-11' });
    expect(useAccount.getState().user?.isLoyalty).toBe(true);
  });

  it("shows the server's refusal and reads the agreement again", async () => {
    let reads = 0;
    api({
      'GET /members/me': () => NON_MEMBER,
      'GET /members/agreement': () => {
        reads += 1;
        return { version: reads === 1 ? '2026-10' : '2026-11', title: '会员协议', content: '……' };
      },
      'POST /members/join': () => ({ status: 400, body: { errCode: '-31', errMsg: '会员协议已更新，请重新阅读并同意', data: null } }),
    });
    logIn();
    renderApp('/addMember');
    await userEvent.click(await screen.findByTestId('member-accept'));
    await userEvent.click(screen.getByTestId('member-join'));
    expect(await screen.findByRole('status')).toHaveTextContent('会员协议已更新，请重新阅读并同意');
    await waitFor(() => expect(screen.getByTestId('member-agreement')).toHaveAttribute('data-version', '2026-11'));
    expect(pathNow()).toBe('/addMember');
  });

  it('tells a member they are one already', async () => {
    api({ 'GET /members/agreement': () => ({ version: '2026-11', title: '会员协议', content: '……' }) });
    logIn();
    renderApp('/addMember');
    await userEvent.click(await screen.findByTestId('member-to-center'));
    await waitFor(() => expect(pathNow()).toBe('/my/member/index'));
  });
});

describe('/my/member/index', () => {
  it('shows the level, the points, the way to the next level and eight entries four a row', async () => {
    api({
      'GET /members/me': () =>
        makeMember({ points: { available: 1280, pending: 93, expiringSoon: 200, expiringSoonAt: Date.parse('2026-12-31T15:59:59Z') } }),
    });
    logIn();
    renderApp('/my/member/index');
    expect(await screen.findByTestId('member-level')).toHaveTextContent('普卡会员');
    expect(screen.getByTestId('member-points-available')).toHaveTextContent('1280');
    expect(screen.getByTestId('member-points-pending')).toHaveTextContent('93');
    expect(screen.getByTestId('member-expiring')).toHaveTextContent('200 积分将于 2026年12月31日 过期');
    const progress = screen.getByTestId('member-progress');
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
    expect(progress).toHaveTextContent('再消费 ¥349.50 升级为 银卡会员');
    const icons = screen.getByTestId('member-icons');
    expect(within(icons).getAllByRole('button')).toHaveLength(8);
    // The unclaimed welcome gift is flagged.
    await waitFor(() => expect(within(screen.getByTestId('member-entry-gift')).getByLabelText('有礼包待领取')).toBeInTheDocument());
    await userEvent.click(screen.getByTestId('member-entry-points'));
    await waitFor(() => expect(pathNow()).toBe('/my/integral/list'));
  });

  it('in English, with the level name as the server gives it', async () => {
    useI18n.setState({ lang: 'en' });
    api({ 'GET /members/me': () => makeMember({ levelName: 'Classic', nextLevel: { level: 2, name: 'Silver', threshold: 500, remaining: 349.5 } }) });
    logIn();
    renderApp('/my/member/index');
    expect(await screen.findByTestId('member-progress')).toHaveTextContent('Spend ¥349.50 more to reach Silver');
    expect(screen.getByTestId('member-entry-deduction')).toHaveTextContent('Pay with points');
  });

  it("lists the member's own privileges with what the server gave, and leads to the coupons", async () => {
    api({
      'GET /members/me': () =>
        makeMember({
          loyaltyLevel: 3,
          levelName: '金卡会员',
          privileges: [
            { code: 'points', name: '积分', description: '每消费 1 元得 2 积分', status: null },
            { code: 'birthday', name: '生日礼', description: '生日当月赠送马苏里拉芝士条一份', status: '本月生日礼已发放，请在优惠券中查看' },
            { code: 'delivery', name: '免配送费', description: '每月两张免配送费券', status: '本月 2 张免配送费券已发放，可用 1 张' },
          ],
        }),
    });
    logIn();
    renderApp('/my/member/index');
    const mine = await screen.findByTestId('member-privileges');
    expect(within(mine).getByRole('heading')).toHaveTextContent('我的特权');
    expect(within(mine).getAllByRole('listitem').map((li) => li.dataset.testid)).toEqual(['member-privilege-points', 'member-privilege-birthday', 'member-privilege-delivery']);
    expect(screen.getByTestId('member-privilege-birthday')).toHaveTextContent('生日当月赠送马苏里拉芝士条一份');
    expect(screen.getByTestId('member-privilege-status-delivery')).toHaveTextContent('本月 2 张免配送费券已发放，可用 1 张');
    expect(screen.queryByTestId('member-privilege-status-points')).toBeNull();
    await userEvent.click(screen.getByTestId('member-privileges-coupons'));
    await waitFor(() => expect(pathNow()).toBe('/my/coupon/list'));
  });

  it('shows no coupon link when the level gives no coupons', async () => {
    api();
    logIn();
    renderApp('/my/member/index');
    expect(await screen.findByTestId('member-privilege-points')).toHaveTextContent('每消费 1 元得 1 积分');
    expect(screen.queryByTestId('member-privileges-coupons')).toBeNull();
  });
});

describe('/my/integral/list', () => {
  it('reads each entry in plain words, filters by kind and pages on', async () => {
    const asked: string[] = [];
    const all = Array.from({ length: 25 }, (_, i) =>
      i === 1
        ? makeEntry({ id: 99, businessId: 'P1001', points: -300, kind: 'spent', businessType: 'deduction' })
        : makeEntry({ id: 100 - i, businessId: `P${1000 + i}`, points: 10 + i }),
    );
    api({
      'GET /points/ledger': (url) => {
        const kind = url.searchParams.get('kind') ?? '';
        const page = Number(url.searchParams.get('page'));
        asked.push(`${kind}:${page}:${url.searchParams.get('pageSize')}`);
        if (kind === 'pending') return { items: [makeEntry({ id: 7, kind: 'pending', businessId: 'P9', points: 45, status: 'pending' })], page: 1, pageSize: 20, total: 1 };
        if (kind === 'expired') return { items: [], page: 1, pageSize: 20, total: 0 };
        return { items: all.slice((page - 1) * 20, page * 20), page, pageSize: 20, total: all.length };
      },
    });
    logIn();
    renderApp('/my/integral/list');
    expect(await screen.findByTestId('points-entry-100')).toHaveTextContent('订单 P1000 获得，已到账');
    expect(screen.getByTestId('points-entry-100')).toHaveTextContent('2027年12月31日 到期');
    expect(screen.getByTestId('points-entry-99')).toHaveTextContent('订单 P1001 抵扣');
    expect(screen.getByTestId('points-entry-99-points')).toHaveTextContent('-300');
    expect(screen.getByTestId('points-entry-100-points')).toHaveTextContent('+10');
    expect(screen.getAllByRole('listitem', { name: undefined }).filter((li) => li.dataset.testid?.startsWith('points-entry-'))).toHaveLength(20);
    await userEvent.click(screen.getByTestId('points-more'));
    await waitFor(() => expect(screen.getByTestId('points-entry-76')).toBeInTheDocument());
    expect(screen.queryByTestId('points-more')).toBeNull();
    expect(screen.getByText('没有更多了')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('points-tab-pending'));
    expect(await screen.findByTestId('points-entry-7')).toHaveTextContent('订单 P9 获得，待到账');
    expect(pathNow()).toBe('/my/integral/list?kind=pending');
    await userEvent.click(screen.getByTestId('points-tab-expired'));
    expect(await screen.findByText('暂无积分记录')).toBeInTheDocument();
    expect(asked).toEqual(['all:1:20', 'all:2:20', 'pending:1:20', 'expired:1:20']);
  });

  it('opens on the filter of the address', async () => {
    const { calls } = api({ 'GET /points/ledger': () => ({ items: [], page: 1, pageSize: 20, total: 0 }) });
    logIn();
    renderApp('/my/integral/list?kind=spent');
    await screen.findByText('暂无积分记录');
    expect(screen.getByTestId('points-tab-spent')).toHaveAttribute('aria-selected', 'true');
    expect(calls.find((c) => c.url.pathname.endsWith('/points/ledger'))?.url.searchParams.get('kind')).toBe('spent');
  });
});

describe('gifts', () => {
  it('claims the welcome gift with the option chosen', async () => {
    let claimed: unknown = null;
    let gift = makeGift();
    api({
      'GET /members/gifts': () => [gift],
      'POST /members/gifts/:id/claim': (url, init) => {
        claimed = { path: url.pathname, body: json(init) };
        gift = makeGift({ status: 'claimed', chosenOptionId: 'o-drink', claimedAt: Date.now() });
        return gift;
      },
    });
    logIn();
    renderApp('/my/member/memberSelectGift');
    await userEvent.click(await screen.findByTestId('gift-claim-g-welcome'));
    expect(await screen.findByRole('status')).toHaveTextContent('请先选择礼品');
    expect(claimed).toBeNull();
    // A free product comes as a coupon, and the card says where it goes.
    expect(screen.getByTestId('gift-option-o-drink')).toHaveTextContent('优惠券，领取后放入「我的优惠券」');
    await userEvent.click(screen.getByTestId('gift-option-o-drink'));
    await userEvent.click(screen.getByTestId('gift-claim-g-welcome'));
    await waitFor(() => expect(screen.getByTestId('gift-g-welcome')).toHaveAttribute('data-status', 'claimed'));
    expect(await screen.findByText('优惠券已放入「我的优惠券」，结算时使用')).toBeInTheDocument();
    expect(claimed).toEqual({ path: '/api/v1/members/gifts/g-welcome/claim', body: { optionId: 'o-drink' } });
    expect(screen.getByTestId('gift-option-o-drink')).toBeDisabled();
  });

  it('lists the upgrade gifts and the level history on the ceremony page', async () => {
    api({
      'GET /members/me': () => makeMember({ loyaltyLevel: 2, levelName: '银卡会员' }),
      'GET /members/gifts': () => [makeGift(), makeGift({ giftId: 'g-up2', kind: 'upgrade', level: 2 })],
      'GET /members/levels/history': () => [
        { fromLevel: null, toLevel: 1, reason: 'join', at: 1 },
        { fromLevel: 1, toLevel: 2, reason: 'upgrade', at: 2 },
      ],
    });
    logIn();
    renderApp('/my/member/promotionCeremony');
    expect(await screen.findByTestId('ceremony')).toHaveTextContent('Lv2');
    expect(await screen.findByTestId('gift-g-up2')).toHaveTextContent('Lv2 升级礼');
    expect(screen.queryByTestId('gift-g-welcome')).toBeNull();
    const history = await screen.findByTestId('level-history');
    expect(history).toHaveTextContent('Lv1 升级到 Lv2');
    expect(history).toHaveTextContent('加入会员 · Lv1');
  });
});

describe('levels and privileges', () => {
  it('shows every level with its threshold and privileges, the member’s own first', async () => {
    api();
    logIn();
    renderApp('/my/member/privilege');
    expect(await screen.findByTestId('level-tab-1')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('level-1')).toHaveTextContent('入会即享');
    await userEvent.click(screen.getByTestId('level-tab-2'));
    expect(screen.getByTestId('level-2')).toHaveTextContent('周期内消费满 ¥500.00');
    expect(screen.getByTestId('privilege-delivery')).toHaveTextContent('每月两张免配送费券');
  });

  it('shows the benefits of the member’s level and what the next adds', async () => {
    api();
    logIn();
    renderApp('/my/member/benefits');
    expect(await screen.findByTestId('benefit-birthday')).toHaveTextContent('生日礼');
    expect(screen.getByTestId('benefits-next')).toHaveTextContent('免配送费');
  });

  it('lays every level side by side on the overview', async () => {
    api();
    logIn();
    renderApp('/my/member/notice');
    const table = await screen.findByTestId('notice-levels');
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(table).toHaveTextContent('钻石会员');
  });
});

describe('/memberPointdeduction', () => {
  it('explains the rule and works the examples out from it', async () => {
    api({ 'GET /points/deduction-rule': () => ({ pointsPerYuan: 100, maxShareOfOrder: 0.5, minPoints: 100 }) });
    logIn();
    renderApp('/memberPointdeduction');
    expect(await screen.findByTestId('guide-rate')).toHaveTextContent('100 积分 = ¥1');
    expect(screen.getByTestId('guide-cap')).toHaveTextContent('每单最多抵扣 50%');
    expect(screen.getByTestId('guide-min')).toHaveTextContent('满 100 积分可用');
    expect(screen.getByTestId('guide-example-1')).toHaveTextContent('订单 ¥89.00，有 8000 积分：用 4450 积分抵 ¥44.50，实付 ¥44.50');
    expect(screen.getByTestId('guide-example-3')).toHaveTextContent('不足 100 积分');
  });
});

describe('the order page', () => {
  it('shows the points the order spent and what they paid', async () => {
    api({
      'GET /orders/:no': () =>
        makeOrder({ pointsDeductions: 1280, pointsAmount: 12.8, orderAmount: 80.4, breakdown: makeBreakdown({ pointsUsed: 1280, pointsDeduction: 12.8, payable: 80.4 }) }),
    });
    logIn();
    renderApp('/order/info?orderNo=P20261124001');
    expect(await screen.findByTestId('breakdown-points')).toHaveTextContent('积分抵扣1280 积分-¥12.80');
    expect(screen.getByTestId('order-amount')).toHaveAttribute('data-amount', '¥80.40');
  });
});

describe('checkout points switch', () => {
  const slots = { asap: 0, days: [] };
  function checkoutApi(pointsDeduction: unknown, over: Record<string, Handler> = {}) {
    const cart = makeCart({ pointsDeduction: pointsDeduction as Cart['pointsDeduction'] });
    return api({
      'GET /addresses': () => [makeAddress({ isDefault: true })],
      'GET /cart': () => cart,
      'POST /cart/verify': () => ({ skipped: false, cart }),
      'GET /orders/reservation/slots': () => slots,
      ...over,
    });
  }

  it('saves what the cart says and sends pointsDeductions at submit', async () => {
    let order: Record<string, unknown> | null = null;
    checkoutApi(
      { available: 1280, usablePoints: 1280, amount: 12.8 },
      {
        'POST /orders': (_u, init) => {
          order = json(init) as Record<string, unknown>;
          return { orderNo: 'P1', orderId: 1, paymentType: 'offline', orderAmount: 80.4, payAmount: 80.4 };
        },
        'GET /orders/:no': () => ({}),
      },
    );
    logIn();
    renderApp('/order/submit');
    const toggle = await screen.findByTestId('points-toggle');
    expect(toggle).toHaveTextContent('用 1280 积分抵 ¥12.80');
    await waitFor(() => expect(screen.getByTestId('checkout-total')).toHaveAttribute('data-amount', '¥93.20'));
    await userEvent.click(screen.getByTestId('points-toggle-input'));
    expect(screen.getByTestId('points-toggle-save')).toHaveTextContent('-¥12.80');
    expect(screen.getByTestId('breakdown-points')).toHaveTextContent('1280 积分');
    expect(screen.getByTestId('checkout-total')).toHaveAttribute('data-amount', '¥80.40');
    await userEvent.click(screen.getByTestId('checkout-pay-offline'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(order).not.toBeNull());
    expect(order).toMatchObject({ pointsDeductions: 1280, orderAmount: 93.2 });
  });

  it('sends no points when the switch is off, and cannot be switched on when none are usable', async () => {
    checkoutApi({ available: 60, usablePoints: 0, amount: 0 });
    logIn();
    renderApp('/order/submit');
    expect(await screen.findByTestId('points-toggle')).toHaveTextContent('可用 60 积分，本单暂不可抵扣');
    expect(screen.getByTestId('points-toggle-input')).toBeDisabled();
  });

  it('invites a non-member to join where the switch would be', async () => {
    checkoutApi(null);
    logIn();
    renderApp('/order/submit');
    expect(await screen.findByTestId('checkout-points')).toHaveTextContent('加入会员');
    expect(screen.queryByTestId('points-toggle')).toBeNull();
  });
});
