import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAccount } from '@/features/account';
import { makeAddress, makeCart, makeMe } from '@/test/fixtures';
import { mockAppApi } from '@/test/mockApi';
import type * as Channel from '@/lib/channel';
import { pathNow, renderApp, resetApp } from '@/test/renderApp';

// This page runs in the meal-voucher partner's channel (30), where coupons do not exist (spec ordering §6).
vi.mock('@/lib/channel', async (importOriginal) => {
  const real = await importOriginal<typeof Channel>();
  return { ...real, currentChannel: () => real.CHANNEL.mealVoucher, showsCoupons: () => real.showsCoupons(real.CHANNEL.mealVoucher) };
});

const me = makeMe({ isRemindAgain: true });

beforeEach(() => {
  resetApp();
  act(() => useAccount.getState().signIn({ token: 'tok-9', expiresAt: 0, newUser: false, user: me }));
});
afterEach(() => {
  act(() => useAccount.getState().signOut());
  vi.unstubAllGlobals();
});

describe('channel 30 (meal-voucher partner)', () => {
  it('has no 我的优惠券 entry, and /my/coupon/list goes home', async () => {
    mockAppApi({ 'GET /me': () => me });
    renderApp('/');
    await userEvent.click(await screen.findByTestId('open-nav'));
    const nav = screen.getByTestId('side-nav');
    expect(within(nav).getByTestId('nav-orders')).toBeInTheDocument();
    expect(within(nav).queryByTestId('nav-coupons')).toBeNull();
    await act(async () => {
      await userEvent.click(within(nav).getByTestId('nav-orders'));
    });
    expect(pathNow()).toBe('/order');
  });

  it('has no coupon entry on /my', async () => {
    mockAppApi({ 'GET /me': () => me });
    renderApp('/my');
    await screen.findByTestId('entry-address');
    expect(screen.queryByTestId('entry-coupons')).toBeNull();
  });

  it('sends a direct visit to /my/coupon/list home, asking nothing of /coupons', async () => {
    const { calls } = mockAppApi({ 'GET /me': () => me });
    renderApp('/my/coupon/list');
    await waitFor(() => expect(pathNow()).toBe('/'));
    expect(calls.some((c) => c.url.pathname.startsWith('/api/v1/coupons'))).toBe(false);
  });

  it('shows no coupon row at checkout and never reads the cart coupons', async () => {
    const { calls } = mockAppApi({
      'GET /me': () => me,
      'GET /addresses': () => [makeAddress({ isDefault: true })],
      'GET /cart': () => makeCart(),
      'POST /cart/verify': () => ({ skipped: false, cart: makeCart() }),
      'GET /orders/reservation/slots': () => ({ asap: 0, days: [] }),
    });
    renderApp('/order/submit');
    await screen.findByTestId('checkout-amounts');
    expect(screen.queryByTestId('checkout-coupons')).toBeNull();
    expect(calls.some((c) => c.url.pathname === '/api/v1/cart/coupons')).toBe(false);
  });

  it('promises a visitor no coupons in the side menu', async () => {
    act(() => useAccount.getState().signOut());
    mockAppApi({});
    renderApp('/');
    await userEvent.click(await screen.findByTestId('open-nav'));
    const who = within(screen.getByTestId('side-nav')).getByTestId('nav-user');
    expect(who).toHaveTextContent('登录后可查看订单');
    expect(who).not.toHaveTextContent('优惠券');
  });
});
