import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { makeMe } from '@/test/fixtures';
import type { LoginReply } from '@/lib/api/types';
import { rememberRedirect, takeRedirect, REDIRECT_TTL_S } from './redirect';
import { resetAccount, useAccount } from './session';

const reply: LoginReply = { token: 'tok-1', expiresAt: 0, newUser: false, user: makeMe() };

beforeEach(() => resetAccount());

describe('account store', () => {
  it('keeps token and user after a login, across a reload', () => {
    useAccount.getState().signIn(reply);
    expect(useAccount.getState().token).toBe('tok-1');
    useAccount.setState({ token: null, user: null });
    resetAccount();
    expect(useAccount.getState().token).toBe('tok-1');
    expect(useAccount.getState().user?.cellPhone).toBe('139****5678');
  });

  it('forgets both on logout', () => {
    useAccount.getState().signIn(reply);
    useAccount.getState().signOut();
    expect(useAccount.getState()).toMatchObject({ token: null, user: null });
    resetAccount();
    expect(useAccount.getState().token).toBeNull();
  });

  it('401: logged out and sent to /login, nothing else cleared', () => {
    useAccount.getState().signIn(reply);
    storage.set('store:selected', { storeCode: 'SH001' });
    expect(useAccount.getState().authFailed('401', '未登录')).toEqual({ toLogin: true, toast: null });
    expect(useAccount.getState().token).toBeNull();
    expect(storage.get('store:selected')).not.toBeNull();
  });

  it('407: logged out, local storage cleared (the language kept), toast 登录过期!', () => {
    useAccount.getState().signIn(reply);
    storage.set('store:selected', { storeCode: 'SH001' });
    storage.set('lang', 'en');
    expect(useAccount.getState().authFailed('407', '登录过期!')).toEqual({ toLogin: true, toast: '登录过期!' });
    expect(useAccount.getState().token).toBeNull();
    expect(storage.get('store:selected')).toBeNull();
    expect(storage.get('account:session')).toBeNull();
    expect(storage.get('lang')).toBe('en');
  });

  it('other errors change nothing', () => {
    useAccount.getState().signIn(reply);
    expect(useAccount.getState().authFailed('400', 'x')).toEqual({ toLogin: false, toast: null });
    expect(useAccount.getState().token).toBe('tok-1');
  });
});

describe('login redirect memory', () => {
  afterEach(() => vi.useRealTimers());

  it('remembers path and query for 10 seconds', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    rememberRedirect('/address/select?from=submit');
    vi.advanceTimersByTime((REDIRECT_TTL_S - 1) * 1000);
    expect(takeRedirect()).toBe('/address/select?from=submit');
    // Used up once taken.
    expect(takeRedirect()).toBeNull();
  });

  it('is gone after 10 seconds', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    rememberRedirect('/my');
    vi.advanceTimersByTime(REDIRECT_TTL_S * 1000 + 1);
    expect(takeRedirect()).toBeNull();
  });

  it('never remembers /index or the login pages', () => {
    rememberRedirect('/index?x=1');
    expect(takeRedirect()).toBeNull();
    rememberRedirect('/login');
    expect(takeRedirect()).toBeNull();
  });
});
