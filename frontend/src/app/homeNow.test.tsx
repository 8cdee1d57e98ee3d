import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { makeAddress, makeCart, makeMe, makeMenu } from '@/test/fixtures';
import { mockAppApi, type Handler } from '@/test/mockApi';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';
import type { OrderSummary } from '@/lib/api/types';

const me = makeMe({ isRemindAgain: true });
const T0 = Date.parse('2026-11-24T03:00:00Z');

const making: OrderSummary = {
  orderNo: 'P20261124777',
  state: 1,
  stateLabel: '已接单',
  progress: 20,
  orderType: 0,
  orderTime: T0,
  storeCode: 'SH001',
  storeName: '人民广场旗舰店',
  orderAmount: 93.2,
  items: [{ name: '超级至尊比萨', quantity: 1, imageUrl: '/images/products/p-super-supreme.svg' }],
  itemCount: 1,
  createdAt: T0,
};

function api(over: Record<string, Handler> = {}) {
  return mockAppApi({
    'GET /stores/:code/menu': () => makeMenu(),
    'GET /me': () => me,
    'GET /addresses': () => [makeAddress({ isDefault: true })],
    'GET /cart': () => makeCart(),
    'GET /orders': () => ({ list: [making], page: 1, pageSize: 10, total: 1, hasMore: false }),
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

describe('the home page shows what is under way', () => {
  it('the order in progress (its stage; a tap opens its tracker) and the cart (count and amount)', async () => {
    const { calls } = api();
    renderApp('/');
    const order = await screen.findByTestId('home-order');
    expect(order).toHaveTextContent('进行中的订单');
    expect(order).toHaveTextContent('烘烤中');
    const cart = await screen.findByTestId('home-cart');
    expect(cart).toHaveTextContent(`共${makeCart().totalQuantity}件`);
    expect(calls.find((c) => c.url.pathname === '/api/v1/orders')?.url.searchParams.get('state')).toBe('active');
    await userEvent.click(order);
    expect(pathNow()).toBe('/order/status?orderNo=P20261124777');
  });

  it('in English, and nothing when no order is under way and the cart is empty', async () => {
    api({ 'GET /orders': () => ({ list: [], page: 1, pageSize: 10, total: 0, hasMore: false }), 'GET /cart': () => makeCart({ items: [], totalQuantity: 0 }) });
    const { useI18n } = await import('@/lib/i18n');
    useI18n.setState({ lang: 'en' });
    renderApp('/');
    await screen.findByTestId('start-delivery').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByTestId('home-now')).toBeNull();
    useI18n.setState({ lang: 'zh' });
  });

  it('the cart card opens the cart on the menu', async () => {
    api({ 'GET /orders': () => ({ list: [], page: 1, pageSize: 10, total: 0, hasMore: false }) });
    renderApp('/');
    await userEvent.click(await screen.findByTestId('home-cart'));
    expect(pathNow()).toBe('/menu?cart=open');
  });
});
