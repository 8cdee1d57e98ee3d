import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { resetBoard, useTabletSession, type StoreBoard, type TabletOrder } from '@/features/tablet';
import { makeTabletOrder } from '@/features/tablet/testOrder';
import { serverNow } from '@/lib/clock';
import { resetSockets } from '@/lib/socket';
import { lastSocket, resetFakeSockets, type FakeSocket } from '@/test/fakeSocket';
import { makeMe } from '@/test/fixtures';
import { mockApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';


const STAFF = { token: 'staff-tok', expiresAt: Date.now() + 12 * 3600_000, storeCode: 'SH001', storeName: '人民广场旗舰店', staffName: '店长' };
const board = (over: Partial<StoreBoard> = {}): StoreBoard => ({
  storeCode: 'SH001',
  storeName: '人民广场旗舰店',
  status: 'open',
  notice: null,
  soldOut: [],
  tabletsOnline: 1,
  noTabletSince: null,
  ...over,
});
const order = (orderNo: string, over: Partial<TabletOrder> = {}) =>
  makeTabletOrder({ orderNo, paidAt: serverNow() - 60_000, stageSince: serverNow() - 60_000, promisedBy: serverNow() + 29 * 60_000, ...over });
const body = (init?: RequestInit) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

function api(queue: () => TabletOrder[], over: Record<string, Handler> = {}) {
  return mockApi({
    'GET /system/page-switch': () => ({ grayPageList: [], use1i8n: true, productSearch: true }),
    'GET /tablet/orders': () => queue(),
    'GET /tablet/store': () => board(),
    ...over,
  });
}

const card = (no: string) => screen.getByTestId(`tablet-order-${no}`);
const column = (col: string) => screen.getByTestId(`tablet-column-${col}`);
const emit = (s: FakeSocket, event: string, payload: unknown) => act(() => s.serverEmit(event, payload));

beforeEach(() => {
  resetApp();
  resetSockets();
  resetFakeSockets();
  resetBoard();
  useTabletSession.getState().signOut();
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  resetSockets();
  vi.unstubAllGlobals();
});

describe('/tablet/login', () => {
  it('logs in with store, staff code and PIN, then opens the board with the staff token', async () => {
    // A customer logged in on the same browser: the tablet must not send that token.
    act(() => useAccount.getState().signIn({ token: 'customer-tok', expiresAt: 0, newUser: false, user: makeMe() }));
    const { calls } = api(() => [order('A1')], { 'POST /tablet/login': (_u, init) => (body(init).pin === '246810' ? STAFF : { status: 400, body: { errCode: '400', errMsg: '门店、工号或PIN错误', data: null } }) });
    renderApp('/tablet');
    await waitFor(() => expect(pathNow()).toBe('/tablet/login'));
    await userEvent.type(screen.getByTestId('tablet-store-code'), 'sh001');
    await userEvent.type(screen.getByTestId('tablet-staff-code'), 'manager');
    await userEvent.type(screen.getByTestId('tablet-pin'), '000000');
    await userEvent.click(screen.getByTestId('tablet-login-submit'));
    expect(await screen.findByTestId('tablet-login-error')).toHaveTextContent('门店、工号或PIN错误');
    await userEvent.type(screen.getByTestId('tablet-pin'), '246810');
    await userEvent.click(screen.getByTestId('tablet-login-submit'));

    expect(await screen.findByTestId('tablet-order-A1')).toBeInTheDocument();
    expect(pathNow()).toBe('/tablet');
    const login = calls.filter((c) => c.url.pathname === '/api/v1/tablet/login');
    expect(login).toHaveLength(2);
    const queue = calls.find((c) => c.url.pathname === '/api/v1/tablet/orders');
    expect(queue?.url.searchParams.get('scope')).toBe('active');
    expect(queue?.headers.Authorization).toBe('Bearer staff-tok');
    // The session survives a reload.
    expect(JSON.parse(window.localStorage.getItem('pz:tablet:session') ?? '{}').v.token).toBe('staff-tok');
    expect(lastSocket('/store').handshakeAuth()).toEqual({ token: 'staff-tok' });
  });

  it('a 401 on a tablet call goes back to the login', async () => {
    useTabletSession.getState().signIn(STAFF);
    api(() => [], { 'GET /tablet/orders': () => ({ status: 401, body: { errCode: '401', errMsg: '未登录', data: null } }) });
    renderApp('/tablet');
    await waitFor(() => expect(pathNow()).toBe('/tablet/login'));
    expect(screen.getByRole('status')).toHaveTextContent('登录已失效，请重新登录');
    expect(window.localStorage.getItem('pz:tablet:session')).toBeNull();
  });
});

describe('/tablet board', () => {
  beforeEach(() => {
    useTabletSession.getState().signIn(STAFF);
  });

  it('puts orders in their columns, rings for a new one until it is accepted, never twice', async () => {
    let queue = [order('M1', { state: 1, progress: 1, seq: 3 }), order('R1', { state: 1, progress: 40, orderType: 1, seq: 7 })];
    api(() => queue, {
      'POST /tablet/orders/:no/accept': (url) => ({ order: order(url.pathname.split('/')[5] ?? '', { state: 1, progress: 1, seq: 3 }), refund: null }),
    });
    renderApp('/tablet');
    expect(await screen.findByTestId('tablet-order-M1')).toBeInTheDocument();
    expect(within(column('making')).getByTestId('tablet-order-M1')).toHaveAttribute('data-progress', '1');
    expect(within(column('ready')).getByTestId('tablet-order-R1')).toHaveTextContent('待取餐');
    expect(screen.queryByTestId('tablet-alarm')).toBeNull();

    const s = lastSocket('/store');
    act(() => s.serverConnect());
    expect(screen.getByTestId('tablet-connection')).toHaveAttribute('data-status', 'connected');
    const fresh = order('N1', { seq: 2 });
    queue = [...queue, fresh];
    emit(s, 'order:new', fresh);
    emit(s, 'order:new', fresh);
    emit(s, 'order:updated', { ...fresh, seq: 1, progress: 99, state: 5 });
    expect(within(column('new')).getAllByTestId('tablet-order-N1')).toHaveLength(1);
    expect(card('N1')).toHaveAttribute('data-flashing', 'true');
    expect(screen.getByTestId('tablet-alarm')).toHaveAttribute('data-ringing', 'true');
    expect(window.__tabletAlarm?.ringing).toBe(true);
    expect(window.__tabletAlarm?.rings).toBeGreaterThan(0);

    await userEvent.click(screen.getByTestId('tablet-accept-N1'));
    await waitFor(() => expect(within(column('making')).getByTestId('tablet-order-N1')).toHaveAttribute('data-flashing', 'false'));
    expect(screen.queryByTestId('tablet-alarm')).toBeNull();
    expect(window.__tabletAlarm?.ringing).toBe(false);

    // Done elsewhere: the card leaves.
    emit(s, 'order:progress', { orderNo: 'R1', progress: 50, state: 8, at: serverNow(), eta: null, seq: 8 });
    expect(screen.queryByTestId('tablet-order-R1')).toBeNull();
  });

  it('advances with the stage shown, offers undo, and a 409 reloads the queue', async () => {
    let queue = [order('M1', { state: 1, progress: 10, seq: 4 }), order('O1', { state: 1, progress: 20, seq: 5 })];
    const advances: unknown[] = [];
    const { calls } = api(() => queue, {
      'POST /tablet/orders/M1/advance': (_u, init) => {
        advances.push(body(init));
        return { order: order('M1', { state: 1, progress: 20, seq: 5, stageSince: serverNow() }), refund: null };
      },
      'POST /tablet/orders/M1/undo': (_u, init) => {
        advances.push(body(init));
        return { order: order('M1', { state: 1, progress: 10, seq: 6, stageSince: serverNow() }), refund: null };
      },
      'POST /tablet/orders/O1/advance': () => ({ status: 409, body: { errCode: '409', errMsg: '订单状态已变化', data: null } }),
    });
    renderApp('/tablet');
    await userEvent.click(await screen.findByTestId('tablet-advance-M1'));
    await waitFor(() => expect(within(column('oven')).getByTestId('tablet-order-M1')).toBeInTheDocument());
    expect(advances).toEqual([{ from: 10 }]);
    await userEvent.click(screen.getByTestId('tablet-undo-M1'));
    await waitFor(() => expect(within(column('making')).getByTestId('tablet-order-M1')).toBeInTheDocument());
    expect(advances).toEqual([{ from: 10 }, { from: 20 }]);
    expect(screen.queryByTestId('tablet-undo-M1')).toBeNull();

    // Another tablet already moved O1 to quality check.
    queue = [order('M1', { state: 1, progress: 10, seq: 6 }), order('O1', { state: 1, progress: 30, seq: 6 })];
    const before = calls.filter((c) => c.url.pathname === '/api/v1/tablet/orders').length;
    await userEvent.click(screen.getByTestId('tablet-advance-O1'));
    await waitFor(() => expect(within(column('check')).getByTestId('tablet-order-O1')).toBeInTheDocument());
    expect(calls.filter((c) => c.url.pathname === '/api/v1/tablet/orders').length).toBe(before + 1);
  });

  it('opens an order with the amounts the customer agreed to, line by line', async () => {
    api(() => [order('B1')]);
    renderApp('/tablet');
    await userEvent.click(await screen.findByTestId('tablet-order-B1'));
    const bill = await screen.findByTestId('tablet-breakdown');
    expect(within(bill).getByTestId('breakdown-line-l_1')).toHaveTextContent('超级至尊比萨9英寸 芝心¥99.00 × 1¥99.00');
    expect(within(bill).getByTestId('breakdown-discount-R002')).toHaveTextContent('比萨8折-¥19.80');
    expect(within(bill).getByTestId('breakdown-fee')).toHaveTextContent('配送费¥6.00');
    expect(within(bill).getByTestId('tablet-breakdown-payable')).toHaveAttribute('data-amount', '¥85.20');
  });

  it('refuses with a reason', async () => {
    const refused: unknown[] = [];
    api(() => [order('N1')], {
      'POST /tablet/orders/N1/refuse': (_u, init) => {
        refused.push(body(init));
        return { order: order('N1', { state: 2, progress: 2, seq: 3 }), refund: 'refunded' };
      },
    });
    renderApp('/tablet');
    await userEvent.click(await screen.findByTestId('tablet-refuse-N1'));
    expect(screen.getByTestId('tablet-refuse-confirm')).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: '超出配送范围' }));
    await userEvent.type(screen.getByTestId('tablet-refuse-reason'), '（雨天）');
    await userEvent.click(screen.getByTestId('tablet-refuse-confirm'));
    await waitFor(() => expect(screen.queryByTestId('tablet-order-N1')).toBeNull());
    expect(refused).toEqual([{ reason: '超出配送范围（雨天）' }]);
    expect(screen.queryByTestId('tablet-refuse-dialog')).toBeNull();
  });

  it('reloads the snapshot after a reconnect the server did not recover, without duplicates', async () => {
    let queue = [order('A1')];
    const { calls } = api(() => queue);
    renderApp('/tablet');
    await screen.findByTestId('tablet-order-A1');
    const s = lastSocket('/store');
    act(() => s.serverConnect());
    act(() => s.drop());
    expect(screen.getByTestId('tablet-connection')).toHaveAttribute('data-status', 'reconnecting');
    // While away: A1 was accepted, B1 arrived.
    queue = [order('A1', { state: 1, progress: 1, seq: 3 }), order('B1')];
    const before = calls.filter((c) => c.url.pathname === '/api/v1/tablet/orders').length;
    act(() => s.serverConnect({ recovered: false }));
    await waitFor(() => expect(screen.getByTestId('tablet-order-B1')).toBeInTheDocument());
    expect(calls.filter((c) => c.url.pathname === '/api/v1/tablet/orders').length).toBeGreaterThan(before);
    expect(within(column('making')).getByTestId('tablet-order-A1')).toBeInTheDocument();
    expect(screen.getAllByTestId(/^tablet-order-/)).toHaveLength(2);
  });

  it('sets the store status with a notice and follows store:update', async () => {
    const puts: unknown[] = [];
    api(() => [], {
      'PUT /tablet/store/status': (_u, init) => {
        puts.push(body(init));
        return board({ status: 'busy', notice: '出餐较慢' });
      },
    });
    renderApp('/tablet');
    await waitFor(() => expect(screen.getByTestId('tablet-store-status')).toHaveAttribute('data-status', 'open'));
    expect(screen.getByTestId('tablet-status-open')).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByTestId('tablet-status-busy'));
    await userEvent.type(screen.getByTestId('tablet-notice'), '出餐较慢');
    await userEvent.click(screen.getByTestId('tablet-status-save'));
    await waitFor(() => expect(screen.getByTestId('tablet-status-busy')).toHaveAttribute('aria-pressed', 'true'));
    expect(puts).toEqual([{ status: 'busy', notice: '出餐较慢' }]);

    const s = lastSocket('/store');
    act(() => s.serverConnect());
    emit(s, 'store:update', { storeCode: 'SH001', status: 'closed', notice: null, soldOut: ['P2'] });
    expect(screen.getByTestId('tablet-store-status')).toHaveAttribute('data-status', 'closed');
  });

  it('toggles a product sold out', async () => {
    const puts: { code: string; body: unknown }[] = [];
    api(() => [], {
      'GET /tablet/products': (url) => [
        { productCode: 'P1', name: '超级至尊比萨', categoryName: '比萨', imageUrl: '', soldOut: false },
        { productCode: 'P2', name: '芝心薯角', categoryName: '小食', imageUrl: '', soldOut: false },
      ].filter((p) => p.name.includes(url.searchParams.get('keyword') ?? '')),
      'PUT /tablet/products/:code/availability': (url, init) => {
        puts.push({ code: url.pathname.split('/')[5] ?? '', body: body(init) });
        return board({ soldOut: ['P1'] });
      },
    });
    renderApp('/tablet');
    await userEvent.click(await screen.findByTestId('tablet-soldout-open'));
    const toggle = await screen.findByTestId('tablet-soldout-P1');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId('tablet-soldout-P1')).toHaveAttribute('aria-pressed', 'true'));
    expect(puts).toEqual([{ code: 'P1', body: { soldOut: true } }]);
    await userEvent.type(screen.getByTestId('tablet-soldout-search'), '薯');
    await waitFor(() => {
      expect(screen.queryByTestId('tablet-soldout-P1')).toBeNull();
      expect(screen.getByTestId('tablet-soldout-P2')).toBeInTheDocument();
    });
  });

  // Last in the file: the tablet keeps its one AudioContext for the page's life.
  it('asks for a tap to enable sound, then beeps every ring', async () => {
    const beeps: number[] = [];
    class FakeAudioContext extends EventTarget {
      state: AudioContextState = 'suspended';
      currentTime = 0;
      destination = {};
      async resume() {
        this.state = 'running';
        this.dispatchEvent(new Event('statechange'));
      }
      createOscillator() {
        beeps.push(1);
        const node = { type: '', frequency: { setValueAtTime: () => undefined }, connect: (n: unknown) => n, start: () => undefined, stop: () => undefined };
        return node;
      }
      createGain() {
        const gain = { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined };
        return { gain, connect: (n: unknown) => n };
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    api(() => [order('N1')]);
    renderApp('/tablet');
    await screen.findByTestId('tablet-order-N1');
    expect(screen.getByTestId('tablet-alarm')).toBeInTheDocument();
    expect(beeps).toHaveLength(0);
    await userEvent.click(screen.getByTestId('tablet-sound-enable'));
    await waitFor(() => expect(screen.queryByTestId('tablet-sound-enable')).toBeNull());
    await waitFor(() => expect(beeps.length).toBeGreaterThan(0), { timeout: 3000 });
  });
});
