/**
 * The login state (spec account §4): a token means logged in. Token and user are kept in
 * localStorage (no expiry: the server ends sessions, answering 407). The api client reads the
 * token through the getter the app layer installs (`setAuthTokenGetter`).
 */
import { create } from 'zustand';
import { ERR } from '@/lib/api';
import { storage } from '@/lib/storage';
import type { LoginReply, Me } from '@/lib/api/types';

const KEY = 'account:session';
/** A 407 clears local storage (spec §8); the chosen language is a device setting and stays. */
export const KEPT_ON_EXPIRY = ['lang'];

interface Saved {
  token: string;
  user: Me | null;
}

export interface AccountState {
  token: string | null;
  user: Me | null;
  /** Adopts a login or registration answer. */
  signIn: (reply: LoginReply) => void;
  setUser: (user: Me) => void;
  /** Forgets token and user (the caller also tells the server, clears carts…). */
  signOut: () => void;
  /**
   * A 401 or 407 answer: logged out locally; a 407 also clears local storage. Answers whether
   * the app should go to /login, and the toast to show (407: 登录过期!).
   */
  authFailed: (errCode: string, message: string) => { toLogin: boolean; toast: string | null };
}

function load(): Pick<AccountState, 'token' | 'user'> {
  const saved = storage.get<Saved>(KEY);
  if (!saved || typeof saved.token !== 'string' || !saved.token) return { token: null, user: null };
  return { token: saved.token, user: saved.user ?? null };
}

export const useAccount = create<AccountState>((set, get) => ({
  ...load(),
  signIn: (reply) => {
    storage.set<Saved>(KEY, { token: reply.token, user: reply.user });
    set({ token: reply.token, user: reply.user });
  },
  setUser: (user) => {
    const token = get().token;
    if (!token) return;
    storage.set<Saved>(KEY, { token, user });
    set({ user });
  },
  signOut: () => {
    storage.remove(KEY);
    set({ token: null, user: null });
  },
  authFailed: (errCode, message) => {
    if (errCode === ERR.SESSION_EXPIRED) {
      storage.clear(KEPT_ON_EXPIRY);
      set({ token: null, user: null });
      return { toLogin: true, toast: message };
    }
    if (errCode === ERR.LOGIN_REQUIRED) {
      get().signOut();
      return { toLogin: true, toast: null };
    }
    return { toLogin: false, toast: null };
  },
}));

export function getToken(): string | null {
  return useAccount.getState().token;
}

export function useLoggedIn(): boolean {
  return useAccount((s) => s.token !== null);
}

/** Back to what storage holds (tests). */
export function resetAccount(): void {
  useAccount.setState(load());
}
