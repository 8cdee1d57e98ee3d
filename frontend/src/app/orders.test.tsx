import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { useCart } from '@/features/cart';
import { makeAddress, makeCart, makeMe, makeMenu, makeOrder } from '@/test/fixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';
import type { OrderSummary } from '@/lib/api/types';
import { formatDateTime } from '@/utils/time';


const me = makeMe({ isRemindAgain: true });
const T0 = Date.parse('2026-11-24T03:00:00Z');
const json = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : null);

function summary(n: number, over: Partial<OrderSummary> = {}): OrderSummary {
  return {
    orderNo: `O${String(n).padStart(3, '0')}`,
    state: 8,
    stateLabel: '已完成',
    progress: 50,
    orderType: 0,
    orderTime: T0 - n * 3600_000,
    storeCode: 'SH001',
    storeName: '人民广场旗舰店',
    orderAmount: 93.2,
    items: [
      { name: '超级至尊比萨', quantity: 1, imageUrl: '/images/products/p-super-supreme.svg' },
      { name: '雪碧', quantity: 2, imageUrl: '/images/products/d-sprite.svg' },
      { name: '鸡翅', quantity: 1, imageUrl: '/images/products/s-wings.svg' },
    ],
    itemCount: 4,
    createdAt: T0 - n * 3600_000,
    ...over,
  };
}

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /stores/:code/menu': () => makeMenu(),
    'GET /me': () => me,
    'GET /addresses': () => [makeAddress({ isDefault: true })],
    'GET /cart': () => makeCart(),
    'POST /cart/verify': () => ({ skipped: false, cart: makeCart() }),
    'GET /orders/reservation/slots': () => ({ asap: T0, days: [] }),
    ...over,
  });
}

beforeEach(() => {
  resetApp();
  act(() => useAccount.getState().signIn({ token: 'tok-9', expiresAt: 0, newUser: false, user: me }));
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  vi.unstubAllGlobals();
});

describe('/order', () => {
  it('lists the orders by filter, ten at a time with "load more"', async () => {
    const { calls } = api({
      'GET /orders': (url) => {
        const page = Number(url.searchParams.get('page'));
        const state = url.searchParams.get('state');
        if (state === 'unpaid') return { list: [summary(1, { state: 5, stateLabel: '待支付', progress: 99 })], page: 1, pageSize: 10, total: 1, hasMore: false };
        const from = (page - 1) * 10;
        const list = Array.from({ length: page === 1 ? 10 : 2 }, (_, i) => summary(from + i + 1));
        return { list, page, pageSize: 10, total: 12, hasMore: page === 1 };
      },
    });
    renderApp('/order');
    const list = await screen.findByTestId('order-list');
    await waitFor(() => expect(list.querySelectorAll('.ocard')).toHaveLength(10));
    const first = screen.getByTestId('order-card-O001');
    expect(first).toHaveTextContent('人民广场旗舰店');
    expect(first).toHaveTextContent('已完成');
    expect(first).toHaveTextContent('超级至尊比萨×1、雪碧×2');
    expect(first).toHaveTextContent('等4件');
    expect(first).toHaveTextContent(formatDateTime(T0 - 3600_000));
    expect(within(first).getByLabelText('¥93.20')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('order-more'));
    await waitFor(() => expect(list.querySelectorAll('.ocard')).toHaveLength(12));
    expect(screen.getByTestId('order-end')).toHaveTextContent('没有更多了');
    expect(calls.filter((c) => c.url.pathname === '/api/v1/orders').map((c) => c.url.searchParams.toString())).toEqual(['state=all&page=1', 'state=all&page=2']);

    await userEvent.click(screen.getByTestId('order-filter-unpaid'));
    expect(screen.getByTestId('order-filter-unpaid')).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.getByTestId('order-list').querySelectorAll('.ocard')).toHaveLength(1));
    expect(screen.getByTestId('order-card-O001-state')).toHaveTextContent('待支付');
    await userEvent.click(screen.getByTestId('order-card-O001-pay'));
    expect(pathNow()).toBe('/order/status?orderNo=O001');
  });

  it('shows an empty list in English', async () => {
    api({ 'GET /orders': () => ({ list: [], page: 1, pageSize: 10, total: 0, hasMore: false }) });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/order?state=cancelled');
    expect(await screen.findByText('No orders yet')).toBeInTheDocument();
    expect(screen.getByTestId('order-filter-cancelled')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('order-filter-active')).toHaveTextContent('Active');
  });

  it('is reached from the home side navigation when logged in', async () => {
    api({ 'GET /orders': () => ({ list: [], page: 1, pageSize: 10, total: 0, hasMore: false }) });
    renderApp('/');
    await userEvent.click(await screen.findByTestId('open-nav'));
    await userEvent.click(within(screen.getByTestId('side-nav')).getByTestId('nav-orders'));
    expect(pathNow()).toBe('/order');
    expect(await screen.findByText('还没有订单')).toBeInTheDocument();
  });
});

describe('/order/info', () => {
  it('shows the lines, amounts and the history with times', async () => {
    api({
      'GET /orders/:no': () =>
        makeOrder({
          orderNo: 'O001',
          state: 8,
          progress: 50,
          progressLabel: '已送达',
          paymentType: 'online',
          paidAmount: 93.2,
          paidAt: T0 + 60_000,
          payment: { paymentId: 'pay_1', state: 'paid', method: 'wechat_h5', amount: 93.2, refundReason: null, refundState: null },
          remark: '【无接触配送】少放辣',
          contactless: true,
          remarkText: '少放辣',
          comment: { rating: 4, text: '很好吃', at: T0 },
          history: [
            { seq: 1, state: 5, progress: 99, actor: 'customer', note: 'created', at: T0 },
            { seq: 2, state: 6, progress: 0, actor: 'system', note: null, at: T0 + 60_000 },
            { seq: 3, state: 1, progress: 1, actor: 'store', note: null, at: T0 + 120_000 },
            { seq: 4, state: 8, progress: 50, actor: 'store', note: null, at: T0 + 1800_000 },
          ],
        }),
    });
    renderApp('/order/info?orderNo=O001');
    const history = await screen.findByTestId('order-history');
    expect(within(history).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      `订单已提交顾客${formatDateTime(T0)}`,
      `待接单系统${formatDateTime(T0 + 60_000)}`,
      `已接单门店${formatDateTime(T0 + 120_000)}`,
      `已送达门店${formatDateTime(T0 + 1800_000)}`,
    ]);
    expect(screen.getByTestId('order-lines')).toHaveTextContent('超级至尊比萨');
    expect(screen.getByTestId('order-lines')).toHaveTextContent('¥99.00 × 1');
    // The amounts frozen at submit: products, each discount, the fee, the payable.
    const bill = screen.getByTestId('order-breakdown');
    expect(within(bill).getByTestId('breakdown-products')).toHaveTextContent('商品金额¥107.00');
    expect(within(bill).getByTestId('breakdown-discount-R002')).toHaveTextContent('比萨8折-¥19.80');
    expect(within(bill).getByTestId('breakdown-fee')).toHaveTextContent('配送费¥6.00');
    expect(within(bill).getByTestId('order-amount')).toHaveAttribute('data-amount', '¥93.20');
    expect(screen.getByTestId('order-paid')).toHaveTextContent('¥93.20');
    expect(screen.getByTestId('order-payment-method')).toHaveTextContent('微信支付');
    expect(screen.getByTestId('order-paid-at')).toHaveTextContent(formatDateTime(T0 + 60_000));
    expect(screen.getByTestId('order-remark')).toHaveTextContent('备注无接触配送 少放辣');
    expect(screen.getByTestId('order-comment')).toHaveTextContent('很好吃');
    expect(screen.queryByTestId('info-comment')).toBeNull();
  });
});

describe('/order/info in English', () => {
  it('names the lines and the discounts in English from the frozen breakdown', async () => {
    // As the server answers in English: the store's English name, each line's options named in English.
    const zh = makeOrder();
    api({
      'GET /orders/:no': () =>
        makeOrder({
          orderNo: 'O002',
          storeName: "People's Square Flagship",
          address: { id: 7, baseAddress: 'No. 236 Xizang Middle Rd', houseNumber: 'Room 501', lat: '31.235', lng: '121.475', cityName: 'Shanghai' },
          receiverName: 'Zhang',
          remark: '【无接触配送】Ring twice',
          contactless: true,
          remarkText: 'Ring twice',
          lineOptions: zh.lines.map((l, i) => ({ lineId: String(l.id), options: i === 0 ? ['12-inch', 'Classic Hand-tossed', '+Cheese', 'no Ham'] : [] })),
        }),
    });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/order/info?orderNo=O002');
    const lines = await screen.findByTestId('order-lines');
    expect(lines).toHaveTextContent('Super Supreme Pizza');
    expect(lines).toHaveTextContent('Sprite');
    expect(lines).toHaveTextContent('12-inch · Classic Hand-tossed · +Cheese · no Ham');
    const bill = screen.getByTestId('order-breakdown');
    expect(bill.textContent).not.toMatch(/[\u4e00-\u9fff]/);
    expect(within(bill).getByTestId('breakdown-discount-R002')).toHaveTextContent('20% off pizzas-¥19.80');
    expect(within(bill).getByTestId('order-amount')).toHaveTextContent('Pay on delivery');
    expect(screen.getByTestId('order-remark')).toHaveTextContent('NotesContactless delivery Ring twice');
    expect(screen.getByTestId('order-payment-method')).toHaveTextContent('Pay on delivery');
    expect(document.querySelector('.ost')?.textContent).not.toMatch(/[\u3400-\u9fff]/);
    useI18n.setState({ lang: 'zh' });
  });
});

describe('/order/oneMoreOrder', () => {
  it('fills the cart again, names what was left out, then goes to checkout', async () => {
    let calls = 0;
    const cart = makeCart({ shoppingCarVersion: 11 });
    api({
      'POST /orders/O001/reorder': () => {
        calls += 1;
        return { cart, skipped: ['DR002'] };
      },
      'GET /orders/:no': () => makeOrder({ orderNo: 'O001' }),
      'POST /cart/verify': () => ({ skipped: false, cart }),
    });
    renderApp('/order/oneMoreOrder?orderNo=O001');
    await waitFor(() => expect(pathNow()).toBe('/order/submit'));
    expect(await screen.findByText('以下商品暂不可售，未加入购物车：雪碧')).toBeInTheDocument();
    expect(useCart.getState().cart?.shoppingCarVersion).toBe(11);
    expect(calls).toBe(1);
  });

  it('shows the refusal with a retry', async () => {
    api({ 'POST /orders/O001/reorder': () => ({ status: 404, body: { errCode: '404', errMsg: '订单不存在', data: null } }) });
    renderApp('/order/oneMoreOrder?orderNo=O001');
    expect(await screen.findByText('订单不存在')).toBeInTheDocument();
    expect(pathNow()).toBe('/order/oneMoreOrder?orderNo=O001');
  });
});

describe('/order/comment', () => {
  it('rates a completed order once (1–5 stars, at most 200 characters)', async () => {
    let sent: unknown = null;
    api({
      'GET /orders/:no': () => makeOrder({ orderNo: 'O001', state: 8, progress: 50, comment: null }),
      'POST /orders/O001/comment': (_u, init) => {
        sent = json(init);
        return null;
      },
    });
    renderApp('/order/comment?orderNo=O001');
    await userEvent.click(await screen.findByTestId('comment-submit'));
    expect(await screen.findByText('请选择评分')).toBeInTheDocument();
    expect(sent).toBeNull();
    await userEvent.click(screen.getByTestId('rating-4'));
    expect(screen.getByTestId('rating-4')).toHaveAttribute('aria-checked', 'true');
    await userEvent.type(screen.getByTestId('comment-text'), ' 很好吃 ');
    expect(screen.getByText('5/200')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('comment-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/info?orderNo=O001'));
    expect(sent).toEqual({ rating: 4, text: '很好吃' });
    expect(screen.getByText('感谢您的评价')).toBeInTheDocument();
  });

  it('an order not completed cannot be rated yet', async () => {
    api({ 'GET /orders/:no': () => makeOrder({ orderNo: 'O001', state: 1, progress: 20 }) });
    renderApp('/order/comment?orderNo=O001');
    expect(await screen.findByText('订单完成后才能评价')).toBeInTheDocument();
    expect(screen.queryByTestId('comment-submit')).toBeNull();
  });
});
