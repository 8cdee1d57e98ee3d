/**
 * The staff session of this tablet, apart from the customer's: its own token, kept in
 * localStorage until the server's expiry so a reload (or a tablet that slept) stays logged in.
 */
import { create } from 'zustand';
import { now } from '@/lib/clock';
import { storage } from '@/lib/storage';
import type { TabletLoginReply } from '../types';

const KEY = 'tablet:session';

export interface TabletSessionState {
  session: TabletLoginReply | null;
  /** The server ended the session (401 / 407): the login page says so. */
  expired: boolean;
  signIn: (reply: TabletLoginReply) => void;
  signOut: () => void;
  /** A tablet call answered 401 / 407. */
  expire: () => void;
}

function load(): TabletLoginReply | null {
  const saved = storage.get<TabletLoginReply>(KEY);
  return saved && typeof saved.token === 'string' && saved.token ? saved : null;
}

export const useTabletSession = create<TabletSessionState>((set) => ({
  session: load(),
  expired: false,
  signIn: (reply) => {
    const ttl = Math.floor((reply.expiresAt - now()) / 1000);
    storage.set(KEY, reply, ttl > 0 ? ttl : undefined);
    set({ session: reply, expired: false });
  },
  signOut: () => {
    storage.remove(KEY);
    set({ session: null, expired: false });
  },
  expire: () => {
    storage.remove(KEY);
    set({ session: null, expired: true });
  },
}));

export function staffToken(): string | null {
  return useTabletSession.getState().session?.token ?? null;
}

/** Back to what storage holds (tests). */
export function resetTabletSession(): void {
  useTabletSession.setState({ session: load(), expired: false });
}
