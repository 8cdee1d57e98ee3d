import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { storage } from '@/lib/storage';
import { makeMe, makeOrder, makeStore } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';

const me = makeMe({ isRemindAgain: true });
const login = { token: 'tok-9', expiresAt: 0, newUser: false, user: me };

function api(over: Record<string, (url: URL, init?: RequestInit) => unknown> = {}) {
  return mockApi({
    'GET /system/page-switch': () => ({ grayPageList: [], use1i8n: true, productSearch: true }),
    'GET /stores/default': () => makeStore(),
    'GET /stores/:code/menu': () => ({ storeCode: 'SH001', orderType: 0, orderTime: 0, storeStatus: 'open', stopStoreNotice: null, categories: [] }),
    'GET /me': () => me,
    'GET /addresses': () => [],
    ...over,
  });
}

function logIn() {
  act(() => useAccount.getState().signIn(login));
}

beforeEach(() => {
  resetApp();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/login form', () => {
  it('shows every field message in place, the agreement included', async () => {
    api();
    renderApp('/login');
    await userEvent.click(await screen.findByTestId('login-submit'));
    expect(screen.getByTestId('login-phone-error')).toHaveTextContent('手机号不能为空');
    expect(screen.getByTestId('login-password-error')).toHaveTextContent('密码不能为空');
    expect(screen.getByTestId('agreement-error')).toHaveTextContent('请点击阅读并同意协议');
    await userEvent.type(screen.getByTestId('login-phone'), '12345');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(screen.getByTestId('login-phone-error')).toHaveTextContent('手机号格式不正确');
  });

  it('in English too', async () => {
    api();
    storage.set('lang', 'en');
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/login?tab=sms');
    await userEvent.click(await screen.findByTestId('login-submit'));
    expect(screen.getByTestId('login-code-error')).toHaveTextContent('Please enter the verification code');
    expect(screen.getByTestId('agreement-error')).toHaveTextContent('Please click read and approve agreement');
  });

  it('shows server field errors under their fields and other failures as a toast', async () => {
    api({
      'POST /auth/login': () => ({ status: 400, body: { errCode: '400', errMsg: '手机号或密码错误', data: null } }),
    });
    renderApp('/login');
    await userEvent.type(await screen.findByTestId('login-phone'), '13912345678');
    await userEvent.type(screen.getByTestId('login-password'), 'abc12345');
    await userEvent.click(screen.getByTestId('agreement'));
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByRole('status')).toHaveTextContent('手机号或密码错误');
  });

  it('a visitor on the address book reads its visitor state, logs in from it, returns and sends the bearer token', async () => {
    const { calls } = api({ 'POST /auth/login': () => login });
    renderApp('/address');
    expect(await screen.findByTestId('visitor-state')).toHaveTextContent('登录后管理收货地址');
    expect(pathNow()).toBe('/address');
    await userEvent.click(screen.getByTestId('visitor-login'));
    await screen.findByTestId('login-submit');
    expect(pathNow()).toBe('/login');
    await userEvent.type(screen.getByTestId('login-phone'), '13912345678');
    await userEvent.type(screen.getByTestId('login-password'), 'abc12345');
    await userEvent.click(screen.getByTestId('agreement'));
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(pathNow()).toBe('/address'));
    expect(await screen.findByTestId('address-add')).toBeInTheDocument();
    const list = calls.find((c) => c.url.pathname === '/api/v1/addresses');
    expect(list?.headers.Authorization).toBe('Bearer tok-9');
  });

  it.each([
    ['zh', '/my', '登录后查看订单、管理收货地址和个人信息', '登录 / 注册'],
    ['zh', '/order', '登录后查看订单', '登录 / 注册'],
    ['en', '/my', 'Log in to see your orders and manage your addresses and details', 'Log in / Sign up'],
    ['en', '/order', 'Log in to see your orders', 'Log in / Sign up'],
  ] as const)('only /order/submit requires login: a visitor on %s %s reads its visitor state', async (lang, path, text, button) => {
    api();
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang });
    renderApp(path);
    expect(await screen.findByTestId('visitor-state')).toHaveTextContent(text);
    expect(screen.getByTestId('visitor-login')).toHaveTextContent(button);
    expect(pathNow()).toBe(path);
    useI18n.setState({ lang: 'zh' });
  });

  it.each([
    ['zh', '登录后查看订单状态', '订单状态'],
    ['en', 'Log in to see how your order is doing', 'Order status'],
  ] as const)('a visitor on /order/status without a view token reads its visitor state (%s), not /login; logging in comes back to the order', async (lang, text, title) => {
    const { calls } = api({
      'POST /auth/login': () => login,
      'GET /orders/:no': () => makeOrder({ orderNo: 'P9', state: 5, paymentType: 'online' }),
    });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang });
    renderApp('/order/status?orderNo=P9');
    expect(await screen.findByTestId('visitor-state')).toHaveTextContent(text);
    expect(screen.getByTestId('visitor-state')).toHaveTextContent(title);
    expect(pathNow()).toBe('/order/status?orderNo=P9');
    // The order is not asked for: the server would answer 401.
    expect(calls.some((c) => c.url.pathname.startsWith('/api/v1/orders'))).toBe(false);
    await userEvent.click(screen.getByTestId('visitor-login'));
    await screen.findByTestId('login-submit');
    await userEvent.type(screen.getByTestId('login-phone'), '13912345678');
    await userEvent.type(screen.getByTestId('login-password'), 'abc12345');
    await userEvent.click(screen.getByTestId('agreement'));
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(pathNow()).toBe('/order/status?orderNo=P9'));
    expect(await screen.findByTestId('order-state')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname === '/api/v1/orders/P9')?.headers.Authorization).toBe('Bearer tok-9');
    useI18n.setState({ lang: 'zh' });
  });

  it('a visitor with the order\'s view token sees the order on /order/status', async () => {
    const viewToken = 'v'.repeat(32);
    const { calls } = api({ 'GET /orders/:no': () => makeOrder({ orderNo: 'P9', state: 5, paymentType: 'online', viewToken }) });
    renderApp(`/order/status?orderNo=P9&viewToken=${viewToken}`);
    expect(await screen.findByTestId('order-state')).toBeInTheDocument();
    expect(screen.queryByTestId('visitor-state')).toBeNull();
    const read = calls.find((c) => c.url.pathname === '/api/v1/orders/P9');
    expect(read?.url.searchParams.get('viewToken')).toBe(viewToken);
    expect(read?.headers.Authorization).toBeUndefined();
    expect(pathNow()).toBe(`/order/status?orderNo=P9&viewToken=${viewToken}`);
  });

  it('/order/submit still sends a visitor to /login', async () => {
    api();
    renderApp('/order/submit');
    await screen.findByTestId('login-submit');
    expect(pathNow()).toBe('/login');
  });

  it('SMS tab: send code starts the countdown with the server wait (429 retryAfterSeconds)', async () => {
    api({
      'POST /auth/sms-code': () => ({ status: 429, body: { errCode: '429', errMsg: '请求频繁，请稍后再试（42秒）', data: { retryAfterSeconds: 42 } } }),
    });
    renderApp('/login?tab=sms');
    await userEvent.click(await screen.findByTestId('send-code'));
    expect(screen.getByTestId('login-phone-error')).toHaveTextContent('手机号不能为空');
    await userEvent.type(screen.getByTestId('login-phone'), '13912345678');
    await userEvent.click(screen.getByTestId('send-code'));
    await waitFor(() => expect(screen.getByTestId('send-code')).toHaveTextContent('42秒后重发'));
    expect(screen.getByTestId('send-code')).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('请求频繁');
  });

  it('opening /login while logged in goes home', async () => {
    api();
    logIn();
    renderApp('/login');
    await screen.findByTestId('start-delivery');
    expect(pathNow()).toBe('/');
  });
});

describe('session errors', () => {
  it('407 logs out, clears local storage and goes to /login with 登录过期!', async () => {
    api({ 'GET /me': () => ({ status: 401, body: { errCode: '407', errMsg: 'expired', data: null } }) });
    logIn();
    storage.set('store:selected', makeStore());
    renderApp('/my');
    await screen.findByTestId('login-submit');
    expect(pathNow()).toBe('/login');
    expect(screen.getByRole('status')).toHaveTextContent('登录过期!');
    expect(useAccount.getState().token).toBeNull();
    expect(storage.get('store:selected')).toBeNull();
  });
});

describe('the agreements', () => {
  it.each([
    ['zh', '/system/privacyProtocol', '个人信息保护政策', '版本 2026.01.01'],
    ['en', '/system/userProtocol', 'User Agreement', 'Version 2026.11.25'],
  ] as const)('%s %s shows the server’s text with its version', async (lang, path, title, version) => {
    const { calls } = api({
      'GET /system/protocol': () => ({
        code: path.includes('privacy') ? 'privacyprotocol' : 'useragreement',
        title,
        version: version.split(' ')[1],
        updateTime: 1767196800000,
        content: '## 1. What we collect\n1. Your mobile number',
      }),
    });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang });
    renderApp(path);
    const doc = await screen.findByTestId('policy');
    expect(screen.getByTestId('policy-version')).toHaveTextContent(version);
    expect(within(doc).getByRole('heading', { name: '1. What we collect' })).toBeInTheDocument();
    expect(doc).toHaveTextContent('1. Your mobile number');
    const call = calls.find((c) => c.url.pathname === '/api/v1/system/protocol');
    expect(call?.url.searchParams.get('code')).toBe(path.includes('privacy') ? 'privacyprotocol' : 'useragreement');
    useI18n.setState({ lang: 'zh' });
  });
});

describe('privacy consent of visitors (spec account §4)', () => {
  const policy = () => ({ code: 'privacyprotocol', title: '个人信息保护政策', version: '2026.01.01', updateTime: 1767196800000, content: '## 一\n1. 手机号' });

  it('a visitor is asked; agreeing is kept on the device for the version in force', async () => {
    window.localStorage.removeItem('pz:privacy:visitor');
    api({ 'GET /system/protocol': policy });
    renderApp('/');
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '同意' }));
    await waitFor(() => expect(screen.queryByTestId('privacy-dialog')).toBeNull());
    expect(window.localStorage.getItem('pz:privacy:visitor')).toContain('1767196800000');
  });

  it('refusing leaves anonymous browsing (kept for the session)', async () => {
    window.localStorage.removeItem('pz:privacy:visitor');
    api({ 'GET /system/protocol': policy });
    renderApp('/');
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '不同意' }));
    expect(window.sessionStorage.getItem('pz:privacy:cancel')).toContain('true');
    await waitFor(() => expect(screen.queryByTestId('privacy-dialog')).toBeNull());
    expect(window.localStorage.getItem('pz:privacy:visitor')).toBeNull();
  });

  it('after a refusal, login asks again, and refusing there goes home', async () => {
    window.localStorage.removeItem('pz:privacy:visitor');
    window.sessionStorage.setItem('pz:privacy:cancel', JSON.stringify({ v: true, e: null }));
    api({ 'GET /system/protocol': policy });
    renderApp('/login');
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '不同意' }));
    await waitFor(() => expect(pathNow()).toBe('/'));
    window.sessionStorage.removeItem('pz:privacy:cancel');
  });

  it('no dialog when the policy cannot be read (its content is required before display)', async () => {
    api();
    renderApp('/');
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByTestId('privacy-dialog')).toBeNull();
  });
});

describe('privacy consent', () => {
  it('refusing records it, sets the session flag and logs out locally', async () => {
    const { calls } = api({
      'GET /me': () => ({ ...me, consentRequired: true }),
      'POST /me/privacy': () => ({ policyUpdatedAt: 1, agreedAt: null, agreedVersion: null, current: false, refusedAt: 2 }),
    });
    logIn();
    renderApp('/');
    await screen.findByTestId('privacy-dialog');
    await userEvent.click(screen.getByRole('button', { name: '不同意' }));
    await waitFor(() => expect(useAccount.getState().token).toBeNull());
    const post = calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/v1/me/privacy');
    expect(post).toBeTruthy();
    expect(window.sessionStorage.getItem('pz:privacy:cancel')).toContain('true');
  });

  it('the SMS dialog is not asked while ordering: it waits for /my', async () => {
    api({ 'GET /me': () => ({ ...me, isRemindAgain: false }) });
    logIn();
    const home = renderApp('/');
    await waitFor(() => expect(useAccount.getState().user?.isRemindAgain).toBe(false));
    await screen.findByTestId('start-delivery');
    expect(screen.queryByTestId('marketing-dialog')).toBeNull();
    home.unmount();
    renderApp('/my');
    await screen.findByTestId('marketing-dialog');
  });

  it('the SMS dialog: "don\'t remind again" is sent with the answer', async () => {
    let body: unknown = null;
    api({
      'GET /me': () => ({ ...me, isRemindAgain: false }),
      'PATCH /me/marketing': (_u, init) => {
        body = JSON.parse(String(init?.body));
        return { isPersonalizedAgree: false, isRemindAgain: true };
      },
    });
    logIn();
    renderApp('/my');
    await screen.findByTestId('marketing-dialog');
    await userEvent.click(screen.getByTestId('marketing-no-remind'));
    await userEvent.click(screen.getByRole('button', { name: '暂不开启' }));
    await waitFor(() => expect(body).toEqual({ isPersonalizedAgree: false, isRemindAgain: true }));
  });
});
