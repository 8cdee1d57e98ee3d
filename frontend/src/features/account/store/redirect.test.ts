import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { peekRedirect, rememberRedirect, settleRedirect, takeRedirect } from './redirect';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('the login target', () => {
  it('is forgotten after 10 s when the login page is never reached', () => {
    rememberRedirect('/order/submit?from=cart');
    vi.advanceTimersByTime(9_000);
    expect(peekRedirect()).toBe('/order/submit?from=cart');
    vi.advanceTimersByTime(1_000);
    expect(takeRedirect()).toBeNull();
  });

  it('is held by the login page however long the SMS code takes, then used once', () => {
    rememberRedirect('/order/submit?from=cart');
    vi.advanceTimersByTime(300);
    settleRedirect('/login');
    vi.advanceTimersByTime(5 * 60_000);
    settleRedirect('/register'); // sign-up on the fly keeps it too
    vi.advanceTimersByTime(60_000);
    expect(peekRedirect()).toBe('/order/submit?from=cart');
    expect(takeRedirect()).toBe('/order/submit?from=cart');
    expect(takeRedirect()).toBeNull();
  });

  it('reaching the login page after the 10 s holds nothing', () => {
    rememberRedirect('/order/submit');
    vi.advanceTimersByTime(10_001);
    settleRedirect('/login');
    expect(takeRedirect()).toBeNull();
  });

  it('is dropped when the customer leaves the login pages without logging in', () => {
    rememberRedirect('/order/submit');
    settleRedirect('/login');
    settleRedirect('/menu');
    vi.advanceTimersByTime(60_000);
    settleRedirect('/login');
    expect(takeRedirect()).toBeNull();
  });

  it.each(['/index', '/login', '/register', '/resetPassword', 'order/submit'])('never remembers %s', (path) => {
    rememberRedirect(path);
    settleRedirect('/login');
    expect(takeRedirect()).toBeNull();
  });
});
