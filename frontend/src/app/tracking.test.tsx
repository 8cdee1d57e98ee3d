import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { serverNow } from '@/lib/clock';
import { resetSockets } from '@/lib/socket';
import { lastSocket, resetFakeSockets, type Emitted, type FakeSocket } from '@/test/fakeSocket';
import { makeMe, makeOrder } from '@/test/fixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';
import type { OrderDetail, OrderStep } from '@/lib/api/types';
import { formatClock } from '@/utils/time';


const T0 = Date.parse('2026-11-24T03:00:00Z');
const min = (n: number) => T0 + n * 60_000;
const LABELS: Record<number, string> = { 1: '已接单', 10: '制作中', 20: '烘烤中', 30: '质检中', 40: '配送中', 50: '已送达' };

function steps(upTo: number, at: (p: number) => number | null = () => null): OrderStep[] {
  const codes = [1, 10, 20, 30, 40, 50];
  const idx = codes.indexOf(upTo);
  return codes.map((p, i) => ({ progress: p, label: LABELS[p] ?? '', at: i <= idx ? at(p) : null, done: i <= idx, current: i === idx }));
}

/** A paid delivery order, awaiting acceptance (seq 2: created, paid). */
function paidOrder(over: Partial<OrderDetail> = {}): OrderDetail {
  return makeOrder({
    orderNo: 'P1',
    state: 6,
    stateLabel: '已支付',
    progress: 0,
    progressLabel: '待接单',
    paymentType: 'online',
    paidAmount: 93.2,
    seq: 2,
    eta: serverNow() + 30 * 60_000,
    arrival: { kind: 'estimated', at: serverNow() + 30 * 60_000, countdownFrom: 0 },
    steps: steps(0),
    canCancel: true,
    viewToken: 'v'.repeat(32),
    payment: { paymentId: 'pay_1', state: 'paid', method: 'alipay_wap', amount: 93.2, refundReason: null, refundState: null },
    history: [
      { seq: 1, state: 5, progress: 99, actor: 'customer', note: 'created', at: min(0) },
      { seq: 2, state: 6, progress: 0, actor: 'system', note: null, at: min(1) },
    ],
    ...over,
  });
}

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /me': () => makeMe({ isRemindAgain: true }),
    ...over,
  });
}

/** The "/" socket's server side: answers order:watch with `snapshot()`. */
function serveWatch(s: FakeSocket, snapshot: () => OrderDetail): Emitted[] {
  const watches: Emitted[] = [];
  s.onEmit = (e) => {
    if (e.event === 'order:watch') {
      watches.push(e);
      e.ack?.({ errCode: '00', order: snapshot() });
    }
  };
  return watches;
}

function progress(s: FakeSocket, seq: number, p: number, state = 1, at = min(seq)) {
  act(() => s.serverEmit('order:progress', { orderNo: 'P1', progress: p, state, at, eta: serverNow() + (50 - p) * 60_000, seq }));
}

const stepOf = (p: number) => screen.getByTestId(`step-${p}`);
const currentStep = () => screen.getByTestId('order-steps').querySelector('[data-current="true"]')?.getAttribute('data-testid');

beforeEach(() => {
  resetApp();
  resetSockets();
  resetFakeSockets();
  act(() => useAccount.getState().signIn({ token: 'tok-1', expiresAt: 0, newUser: false, user: makeMe({ isRemindAgain: true }) }));
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  resetSockets();
  vi.unstubAllGlobals();
});

describe('/order/status live', () => {
  it('takes the snapshot by order:watch, then follows order:progress step by step', async () => {
    const snapshot = paidOrder();
    const { calls } = api({ 'GET /orders/:no': () => snapshot });
    renderApp('/order/status?orderNo=P1');
    // Not connected yet: the REST snapshot.
    expect(await screen.findByTestId('order-progress')).toHaveTextContent('待接单');
    expect(calls.filter((c) => c.url.pathname === '/api/v1/orders/P1')).toHaveLength(1);
    const s = lastSocket('/');
    const watches = serveWatch(s, () => snapshot);
    act(() => s.serverConnect());
    await waitFor(() => expect(watches).toHaveLength(1));
    expect(watches[0]?.payload).toEqual({ orderNo: 'P1', lang: 'zh' });
    expect(screen.getByTestId('order-live')).toHaveAttribute('data-status', 'connected');
    expect(screen.getByTestId('order-live')).toHaveTextContent('实时更新');

    // The store accepts, then the line moves.
    progress(s, 3, 1);
    expect(screen.getByTestId('order-progress')).toHaveTextContent('已接单');
    expect(currentStep()).toBe('step-1');
    expect(screen.getByTestId('step-1-time')).toHaveTextContent(formatClock(min(3)));
    expect(screen.queryByTestId('order-cancel')).toBeNull();
    progress(s, 4, 10);
    progress(s, 5, 20);
    expect(currentStep()).toBe('step-20');
    expect(screen.getByTestId('order-progress')).toHaveTextContent('烘烤中');
    // The same event again changes nothing.
    progress(s, 5, 20, 1, min(30));
    expect(screen.getByTestId('step-20-time')).toHaveTextContent(formatClock(min(5)));
    progress(s, 6, 30);
    progress(s, 7, 40);
    progress(s, 8, 50, 8);
    expect(screen.getByTestId('order-progress')).toHaveTextContent('已送达');
    expect(screen.getByTestId('order-state')).toHaveAttribute('data-state', '8');
    for (const [p, seq] of [[1, 3], [10, 4], [20, 5], [30, 6], [40, 7], [50, 8]] as const) {
      expect(stepOf(p)).toHaveAttribute('data-done', 'true');
      expect(screen.getByTestId(`step-${p}-time`)).toHaveTextContent(formatClock(min(seq)));
    }
    // One snapshot by GET, one by watch: no more.
    expect(watches).toHaveLength(1);
  });

  it('a gap in seq takes a fresh snapshot; the later step never shows first', async () => {
    let snapshot = paidOrder({ state: 1, progress: 1, progressLabel: '已接单', seq: 3, steps: steps(1, () => min(3)) });
    api({ 'GET /orders/:no': () => snapshot });
    renderApp('/order/status?orderNo=P1');
    const s = lastSocket('/');
    const watches = serveWatch(s, () => snapshot);
    act(() => s.serverConnect());
    await waitFor(() => expect(watches).toHaveLength(1));
    await screen.findByTestId('order-steps');
    // seq 4 (making) was missed: 5 (oven) arrives.
    snapshot = paidOrder({ state: 1, progress: 20, progressLabel: '烘烤中', seq: 5, steps: steps(20, (p) => min(p === 1 ? 3 : p === 10 ? 4 : 5)) });
    progress(s, 5, 20);
    await waitFor(() => expect(watches).toHaveLength(2));
    await waitFor(() => expect(currentStep()).toBe('step-20'));
    expect(screen.getByTestId('step-10')).toHaveAttribute('data-done', 'true');
    expect(screen.getByTestId('step-10-time')).toHaveTextContent(formatClock(min(4)));
    expect(screen.getByTestId('order-state')).toHaveAttribute('data-seq', '5');
    // And on from there.
    progress(s, 6, 30);
    expect(currentStep()).toBe('step-30');
    expect(watches).toHaveLength(2);
  });

  it('a reconnect the server did not recover watches again; a recovered one does not', async () => {
    let snapshot = paidOrder();
    api({ 'GET /orders/:no': () => snapshot });
    renderApp('/order/status?orderNo=P1');
    const s = lastSocket('/');
    const watches = serveWatch(s, () => snapshot);
    act(() => s.serverConnect());
    await waitFor(() => expect(watches).toHaveLength(1));

    act(() => s.drop());
    expect(screen.getByTestId('order-live')).toHaveAttribute('data-status', 'reconnecting');
    // Two moves while away; the session comes back recovered with them replayed.
    act(() => s.serverConnect({ recovered: true }));
    progress(s, 3, 1);
    progress(s, 4, 10);
    expect(currentStep()).toBe('step-10');
    expect(watches).toHaveLength(1);

    act(() => s.drop());
    snapshot = paidOrder({ state: 1, progress: 30, progressLabel: '质检中', seq: 6, steps: steps(30, (p) => min(p === 1 ? 3 : p === 10 ? 4 : p === 20 ? 5 : 6)) });
    act(() => s.serverConnect({ recovered: false }));
    await waitFor(() => expect(watches).toHaveLength(2));
    await waitFor(() => expect(currentStep()).toBe('step-30'));
    expect(screen.getByTestId('step-20')).toHaveAttribute('data-done', 'true');
  });

  it('shows the takeaway words, the arrival on the server clock and the store phone', async () => {
    const eta = serverNow() + 10 * 60_000;
    const order = paidOrder({
      orderType: 1,
      address: null,
      state: 1,
      progress: 30,
      progressLabel: '质检中',
      eta,
      arrival: { kind: 'estimated', at: eta, countdownFrom: 0 },
      steps: [1, 10, 20, 30, 40, 50].map((p, i) => ({
        progress: p,
        label: ['已接单', '制作中', '烘烤中', '质检中', '待取餐', '已完成'][i] ?? '',
        at: i <= 3 ? min(i) : null,
        done: i <= 3,
        current: i === 3,
      })),
    });
    api({ 'GET /orders/:no': () => order });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-progress')).toHaveTextContent('质检中');
    expect(stepOf(50)).toHaveTextContent('已完成');
    expect(screen.getByTestId('order-eta')).toHaveTextContent(`预计 ${formatClock(eta)} 可取餐`);
    expect(screen.getByTestId('order-eta-left').textContent).toMatch(/还剩 (09:5\d|10:00)/);
    expect(screen.getByTestId('store-tel')).toHaveAttribute('href', 'tel:021-63225180');
    expect(screen.getByTestId('store-tel')).toHaveTextContent('021-63225180');
  });

  it('a booked order shows its booked time, and a countdown only within two hours of it (issue 22)', async () => {
    // Booked for 32 h 47 min ahead: not "32:46:51 left".
    const far = serverNow() + (32 * 60 + 47) * 60_000;
    api({ 'GET /orders/:no': () => paidOrder({ isBookOrder: true, orderTime: far, eta: far, arrival: { kind: 'booked', at: far, countdownFrom: far - 2 * 3600_000 } }) });
    renderApp('/order/status?orderNo=P1');
    const line = await screen.findByTestId('order-eta');
    expect(line).toHaveAttribute('data-kind', 'booked');
    expect(line).toHaveTextContent(/^预约 .*\d{2}:\d{2} 送达$/);
    expect(line.textContent).not.toMatch(/还剩/);
    expect(screen.queryByTestId('order-eta-left')).toBeNull();
  });

  it('a booked order near its time counts down; a delivered one says when', async () => {
    const near = serverNow() + 90 * 60_000;
    api({ 'GET /orders/:no': () => paidOrder({ isBookOrder: true, orderTime: near, arrival: { kind: 'booked', at: near, countdownFrom: near - 2 * 3600_000 } }) });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-eta')).toHaveTextContent(`预约 ${formatClock(near)} 送达`);
    expect(screen.getByTestId('order-eta-left').textContent).toMatch(/还剩 1:(29:5\d|30:00)/);
  });

  it('a delivered order shows when it was delivered, without a countdown', async () => {
    const at = serverNow() - 5 * 60_000;
    api({ 'GET /orders/:no': () => paidOrder({ state: 8, progress: 50, progressLabel: '已送达', steps: steps(50, () => at), arrival: { kind: 'delivered', at, countdownFrom: null } }) });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-eta')).toHaveTextContent(`${formatClock(at)} 已送达`);
    expect(screen.queryByTestId('order-eta-left')).toBeNull();
  });

  it('in English', async () => {
    api({ 'GET /orders/:no': () => paidOrder({ steps: undefined, progressLabel: undefined, state: 1, progress: 10, history: [{ seq: 3, state: 1, progress: 1, actor: 'store', note: null, at: min(3) }, { seq: 4, state: 1, progress: 10, actor: 'store', note: null, at: min(4) }] }) });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-progress')).toHaveTextContent('Making');
    expect(stepOf(40)).toHaveTextContent('Out for delivery');
    expect(screen.getByTestId('order-eta')).toHaveTextContent('Arrives about');
    expect(screen.getByTestId('step-1-time')).toHaveTextContent(formatClock(min(3)));
  });

  it('in English even when the snapshot came in Chinese (a socket opened before the switch): the stage words are the app’s own', async () => {
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    api({ 'GET /orders/:no': () => paidOrder({ state: 1, progress: 1, progressLabel: '已接单', steps: steps(1, () => min(3)) }) });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-progress')).toHaveTextContent('Accepted');
    const tracker = screen.getByTestId('order-steps');
    expect(tracker.textContent).not.toMatch(/[\u3400-\u9fff]/);
    expect(stepOf(40)).toHaveTextContent('Out for delivery');
    expect(screen.getByTestId('order-progress').textContent).not.toMatch(/[\u3400-\u9fff]/);
  });

  it('cancels before the store accepts, after a confirmation', async () => {
    let cancelled = false;
    api({
      'GET /orders/:no': () => paidOrder(),
      'POST /orders/P1/cancel': () => {
        cancelled = true;
        return paidOrder({ state: 3, stateLabel: '已取消', progress: 3, progressLabel: '已取消', seq: 3, canCancel: false, payment: { paymentId: 'pay_1', state: 'refunded', method: 'alipay_wap', amount: 93.2, refundReason: null, refundState: null } });
      },
    });
    renderApp('/order/status?orderNo=P1');
    await userEvent.click(await screen.findByTestId('order-cancel'));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('确定取消订单吗？');
    expect(dialog).toHaveTextContent('已支付的金额将原路退回');
    await userEvent.click(within(dialog).getByRole('button', { name: '再想想' }));
    expect(cancelled).toBe(false);
    await userEvent.click(screen.getByTestId('order-cancel'));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '取消订单' }));
    await waitFor(() => expect(screen.getByTestId('order-progress')).toHaveTextContent('已取消'));
    expect(cancelled).toBe(true);
    expect(screen.queryByTestId('order-cancel')).toBeNull();
    expect(screen.queryByTestId('order-refund')).toBeNull();
  });

  it.each([
    ['refunding', '退款中 ¥93.20', '款项将原路退回，无需操作'],
    ['failed', '退款失败 ¥93.20', '系统会继续重试，如有疑问请致电门店'],
    ['refunded', '已退款 ¥93.20', '款项已原路退回'],
  ] as const)('a refused order shows the store’s reason and the refund %s, with no refund button (the refund is automatic)', async (refundState, line, hint) => {
    api({
      'GET /orders/:no': () =>
        paidOrder({
          state: 2,
          progress: 2,
          canCancel: false,
          refusalReason: '原料不足',
          payment: { paymentId: 'pay_1', state: refundState === 'refunded' ? 'refunded' : 'refunding', method: 'alipay_wap', amount: 93.2, refundReason: '门店拒单', refundState },
        }),
    });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-progress')).toHaveTextContent('已取消');
    expect(screen.getByTestId('order-state')).toHaveTextContent('门店已拒单');
    expect(screen.getByTestId('order-refusal-reason')).toHaveTextContent('原料不足');
    expect(screen.getByTestId('order-refund-state')).toHaveTextContent(line);
    expect(screen.getByTestId('order-refund-card')).toHaveTextContent(hint);
    if (refundState === 'failed') expect(screen.getByTestId('order-refund-tel')).toHaveAttribute('href', 'tel:021-63225180');
    else expect(screen.queryByTestId('order-refund-tel')).toBeNull();
    expect(screen.queryByTestId('order-refund')).toBeNull();
    expect(screen.queryByRole('button', { name: /退款/ })).toBeNull();
  });

  it('a refused order in English', async () => {
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    api({
      'GET /orders/:no': () =>
        paidOrder({ state: 2, progress: 2, canCancel: false, refusalReason: 'Out of dough', payment: { paymentId: 'pay_1', state: 'refunding', method: 'alipay_wap', amount: 93.2, refundReason: null, refundState: 'failed' } }),
    });
    renderApp('/order/status?orderNo=P1');
    expect(await screen.findByTestId('order-refund-state')).toHaveTextContent('Refund failed ¥93.20');
    expect(screen.getByTestId('order-state')).toHaveTextContent('The store declined the order');
    expect(screen.getByTestId('order-refund-card').textContent).not.toMatch(/[\u3400-\u9fff]/);
  });

  it('the cancel of a paid order whose refund fails shows the same alert with the order’s store phone', async () => {
    api({
      'GET /orders/:no': () => paidOrder(),
      'POST /orders/P1/cancel': () => ({ status: 502, body: { errCode: '01', errMsg: '退券失败，请联系客服', data: null } }),
    });
    renderApp('/order/status?orderNo=P1');
    await userEvent.click(await screen.findByTestId('order-cancel'));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '取消订单' }));
    expect(await screen.findByTestId('refund-failed-tel')).toHaveAttribute('href', 'tel:021-63225180');
  });

  it('opens the order list and the order detail', async () => {
    api({ 'GET /orders/:no': () => paidOrder(), 'GET /orders': () => ({ list: [], page: 1, pageSize: 10, total: 0, hasMore: false }) });
    renderApp('/order/status?orderNo=P1');
    await userEvent.click(await screen.findByTestId('order-info-link'));
    expect(pathNow()).toBe('/order/info?orderNo=P1');
    await screen.findByTestId('order-history');
    await userEvent.click(screen.getByTestId('info-track'));
    await userEvent.click(await screen.findByTestId('order-list-link'));
    expect(pathNow()).toBe('/order');
  });
});
