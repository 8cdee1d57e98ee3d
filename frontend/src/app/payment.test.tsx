import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { PAY_RECORD_KEY, readPayRecord, recordOfCreated, savePayRecord } from '@/features/payment';
import { serverNow } from '@/lib/clock';
import { resetSockets } from '@/lib/socket';
import { storage } from '@/lib/storage';
import { lastSocket, resetFakeSockets } from '@/test/fakeSocket';
import { makeAddress, makeCart, makeMe, makeOrder } from '@/test/fixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';
import type * as Handoff from '@/features/payment/handoff';
import type { PaymentCreated } from '@/lib/api/types';

// The browser leaving for the provider is recorded instead of done (jsdom cannot navigate).
const left = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('@/features/payment/handoff', async (importOriginal) => {
  const mod = await importOriginal<typeof Handoff>();
  return {
    ...mod,
    performHandoff: (h: Parameters<typeof mod.performHandoff>[0]) => mod.performHandoff(h, { assign: (url) => left.urls.push(url), document }),
  };
});


const me = makeMe({ isRemindAgain: true });
const ASAP = Date.parse('2026-11-24T03:00:00Z');
const json = (init?: RequestInit): Record<string, unknown> => (init?.body ? JSON.parse(String(init.body)) : {});
const headerOf = (init: RequestInit | undefined, name: string) => (init?.headers as Record<string, string> | undefined)?.[name];

function created(orderNo: string, over: Partial<PaymentCreated> = {}): PaymentCreated {
  return {
    paymentId: `pay_${orderNo}`,
    orderNo,
    orderId: 9,
    orderType: 0,
    method: 'alipay_wap',
    payAmount: 93.2,
    orderAmount: 93.2,
    alreadyPayAmount: 0,
    html: null,
    url: `/sandbox/cashier/pay_${orderNo}`,
    payInfo: null,
    signInfo: null,
    tn: null,
    unionPayParas: null,
    expiresAt: serverNow() + 30 * 60_000,
    ...over,
  };
}

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /me': () => me,
    'GET /addresses': () => [makeAddress({ isDefault: true })],
    'GET /cart': () => makeCart({ orderTime: ASAP }),
    'POST /cart/verify': () => ({ skipped: false, cart: makeCart({ orderTime: ASAP }) }),
    'GET /orders/reservation/slots': () => ({ asap: ASAP, days: [] }),
    'POST /orders': (_u, init) => {
      const offline = json(init).paymentType === 'offline';
      return { orderNo: 'P9', orderId: 9, orderAmount: 93.2, payable: 93.2, paymentType: offline ? 'offline' : 'online', state: offline ? 7 : 5, orderType: 0, orderTime: ASAP };
    },
    'GET /orders/:no': () => makeOrder({ orderNo: 'P9', state: 5, paymentType: 'online', orderTime: ASAP, seq: 1 }),
    ...over,
  });
}

beforeEach(() => {
  resetApp();
  resetSockets();
  resetFakeSockets();
  left.urls.length = 0;
  act(() => useAccount.getState().signIn({ token: 'tok-9', expiresAt: 0, newUser: false, user: me }));
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  resetSockets();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function submitOnline() {
  renderApp('/order/submit');
  await waitFor(() => expect(screen.getByTestId('checkout-address')).toHaveTextContent('西藏中路'));
}

describe('the payment step of checkout', () => {
  it("offers the web channel's methods and pays with Alipay by default: POST /payments, the record, then the cashier", async () => {
    let body: Record<string, unknown> = {};
    let key: string | undefined;
    api({
      'POST /payments': (_u, init) => {
        body = json(init);
        key = headerOf(init, 'Idempotency-Key');
        return created('P9');
      },
    });
    await submitOnline();
    const methods = screen.getByTestId('checkout-methods');
    expect(methods).toHaveTextContent('支付宝');
    expect(methods).toHaveTextContent('银联在线支付');
    expect(screen.getByTestId('checkout-method-alipay_wap')).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(left.urls).toEqual(['http://localhost:3000/sandbox/cashier/pay_P9']));
    expect(body).toEqual({ orderNo: 'P9', method: 'alipay_wap', returnUrl: '/order/status?orderNo=P9' });
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // 支付处理中... stays up while the page leaves.
    expect(screen.getByTestId('paying')).toHaveTextContent('支付处理中...');
    expect(readPayRecord()).toMatchObject({ orderNo: 'P9', orderId: 9, money: 93.2, orderType: 0, orderAmount: 93.2, alreadyPayAmount: 0, paymentId: 'pay_P9' });
  });

  it('pays with the method chosen; a form answer is submitted', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    let method: unknown;
    api({
      'POST /payments': (_u, init) => {
        method = json(init).method;
        return created('P9', { method: 'unionpay_web', url: null, html: '<form action="https://gateway.test/pay" method="post"><input name="x" value="1"></form>' });
      },
    });
    await submitOnline();
    await userEvent.click(screen.getByTestId('checkout-method-unionpay_web'));
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(method).toBe('unionpay_web');
    expect((submit.mock.contexts[0] as HTMLFormElement).action).toBe('https://gateway.test/pay');
  });

  it('a refused payment shows 支付失败 with the reason for 3 s and the status page with customestatus=1', async () => {
    api({
      'POST /payments': () => ({ status: 400, body: { errCode: '400', errMsg: '当前渠道不支持该支付方式', data: null } }),
    });
    await submitOnline();
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByText('支付失败：当前渠道不支持该支付方式')).toBeInTheDocument();
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P9&customestatus=1'));
    expect(await screen.findByTestId('pay-failed')).toHaveTextContent('支付失败');
    expect(screen.queryByTestId('paying')).toBeNull();
    expect(left.urls).toEqual([]);
  });

  it('pay on delivery goes straight to the status page, with no payment', async () => {
    const { calls } = api({ 'GET /orders/:no': () => makeOrder({ orderNo: 'P9', orderTime: ASAP }) });
    await submitOnline();
    await userEvent.click(screen.getByTestId('checkout-pay-offline'));
    expect(screen.queryByTestId('checkout-methods')).toBeNull();
    await userEvent.click(screen.getByTestId('checkout-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P9'));
    expect(calls.some((c) => c.url.pathname === '/api/v1/payments')).toBe(false);
    expect(await screen.findByTestId('order-state')).toHaveTextContent('货到付款');
  });

  it('an app method answer shows the instructions, then the status page', async () => {
    api({ 'POST /payments': () => created('P9', { url: null, payInfo: 'app_id=2021&sign=abc', method: 'alipay_wap' }) });
    await submitOnline();
    await userEvent.click(screen.getByTestId('checkout-submit'));
    expect(await screen.findByTestId('pay-app')).toHaveTextContent('app_id=2021&sign=abc');
    await userEvent.click(screen.getByRole('button', { name: '我已完成支付' }));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P9&paymentId=pay_P9'));
  });
});

describe('/order/status and the payment', () => {
  it('shows 支付处理中... while the payment is pending, and follows payment:result', async () => {
    let state = 'pending';
    let order = makeOrder({ orderNo: 'P9', state: 5, paymentType: 'online', orderTime: ASAP, seq: 1, progress: 99 });
    savePayRecord(recordOfCreated(created('P9'), serverNow()));
    api({
      'GET /orders/:no': () => order,
      'GET /payments/pay_P9': () => ({ paymentId: 'pay_P9', orderNo: 'P9', state, method: 'alipay_wap', amount: 93.2, failReason: null }),
    });
    renderApp('/order/status?orderNo=P9&paymentId=pay_P9');
    expect(await screen.findByTestId('pay-pending')).toHaveTextContent('支付处理中...');
    expect(screen.getByTestId('order-progress')).toHaveTextContent('支付处理中...');
    // Paid: the result reaches the user's sockets; the order moves on (5 → 6) with its own event.
    state = 'paid';
    order = makeOrder({ orderNo: 'P9', state: 6, paymentType: 'online', orderTime: ASAP, seq: 2, progress: 0, progressLabel: '待接单', paidAmount: 93.2 });
    const s = lastSocket('/');
    act(() => s.serverEmit('payment:result', { orderNo: 'P9', paymentId: 'pay_P9', result: 'paid', at: serverNow() }));
    await waitFor(() => expect(screen.getByTestId('order-progress')).toHaveTextContent('待接单'));
    expect(screen.queryByTestId('pay-pending')).toBeNull();
    expect(storage.get(PAY_RECORD_KEY)).toBeNull();
  });

  it('customestatus=1: 支付失败 with the provider reason, and pay again creates a new payment', async () => {
    const keys: (string | undefined)[] = [];
    api({
      'GET /orders/:no': () => makeOrder({ orderNo: 'P9', state: 4, paymentType: 'online', orderTime: ASAP, seq: 2, progress: 99, payment: { paymentId: 'pay_P9', state: 'failed', method: 'unionpay_web', amount: 93.2, refundReason: null, refundState: null } }),
      'GET /payments/pay_P9': () => ({ paymentId: 'pay_P9', orderNo: 'P9', state: 'failed', method: 'unionpay_web', amount: 93.2, failReason: '余额不足' }),
      'POST /payments': (_u, init) => {
        keys.push(headerOf(init, 'Idempotency-Key'));
        expect(json(init).method).toBe('unionpay_web');
        return created('P9', { paymentId: 'pay_P9b', url: '/sandbox/cashier/pay_P9b' });
      },
    });
    renderApp('/order/status?orderNo=P9&paymentId=pay_P9&customestatus=1');
    const failed = await screen.findByTestId('pay-failed');
    expect(failed).toHaveTextContent('支付失败');
    expect(await screen.findByText('支付失败：余额不足')).toBeInTheDocument();
    await waitFor(() => expect(failed).toHaveTextContent('余额不足'));
    await userEvent.click(screen.getByTestId('pay-again'));
    await waitFor(() => expect(left.urls).toEqual(['http://localhost:3000/sandbox/cashier/pay_P9b']));
    expect(keys).toHaveLength(1);
    expect(readPayRecord()?.paymentId).toBe('pay_P9b');
  });

  it("asks the server's copy of the record when the page knows of no attempt", async () => {
    api({
      'GET /orders/:no': () => makeOrder({ orderNo: 'P9', state: 5, paymentType: 'online', orderTime: ASAP, seq: 1, progress: 99, payment: null }),
      'GET /payments/in-progress': () => ({ money: 93.2, orderNo: 'P9', orderId: 9, payInfo: null, orderType: 0, orderAmount: 93.2, alreadyPayAmount: 0, paymentId: 'pay_X', method: 'alipay_wap', expiresAt: serverNow() + 20 * 60_000 }),
      'GET /payments/pay_X': () => ({ paymentId: 'pay_X', orderNo: 'P9', state: 'pending', method: 'alipay_wap', amount: 93.2, failReason: null }),
    });
    renderApp('/order/status?orderNo=P9');
    expect(await screen.findByTestId('pay-pending')).toHaveTextContent('支付处理中...');
    expect(readPayRecord()?.paymentId).toBe('pay_X');
  });
});

describe('back from paying', () => {
  it('goes to the order status 500 ms after the page becomes visible again while a payment is in progress', async () => {
    api({ 'GET /orders/:no': () => makeOrder({ orderNo: 'P9', state: 5, paymentType: 'online', orderTime: ASAP }), 'GET /payments/:id': () => ({ paymentId: 'pay_P9', orderNo: 'P9', state: 'pending', method: 'alipay_wap', amount: 93.2, failReason: null }) });
    renderApp('/my');
    await screen.findByTestId('my-phone');
    savePayRecord(recordOfCreated(created('P9'), serverNow()));
    // Only the fake clock moves: with shouldAdvanceTime a slow machine's real milliseconds
    // were added to the 400 and the 500 ms timer fired before the first check.
    vi.useFakeTimers();
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(pathNow()).toBe('/my');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(150);
    });
    expect(pathNow()).toBe('/order/status?orderNo=P9&paymentId=pay_P9');
  });

  it('does nothing without a record (or once it expired)', async () => {
    api();
    renderApp('/my');
    await screen.findByTestId('my-phone');
    savePayRecord({ ...recordOfCreated(created('P9'), serverNow() - 31 * 60_000), expiresAt: null }, serverNow() - 31 * 60_000);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await new Promise((r) => setTimeout(r, 650));
    expect(pathNow()).toBe('/my');
  });
});
