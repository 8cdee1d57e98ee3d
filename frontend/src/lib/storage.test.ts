import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, storage } from './storage';

afterEach(() => {
  vi.useRealTimers();
});

describe('storage with expiry', () => {
  it('keeps a value without expiry until removed', () => {
    storage.set('a', { x: 1 });
    expect(storage.get('a')).toEqual({ x: 1 });
    storage.remove('a');
    expect(storage.get('a')).toBeNull();
  });

  it('answers a value until its expiry, then null, and removes it', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    storage.set('s', 'store', 60);
    vi.setSystemTime(new Date('2025-01-01T00:00:59Z'));
    expect(storage.get('s')).toBe('store');
    vi.setSystemTime(new Date('2025-01-01T00:01:00Z'));
    expect(storage.get('s')).toBeNull();
    expect(window.localStorage.getItem('pz:s')).toBeNull();
  });

  it('sweeps expired entries and keeps the rest', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    storage.set('old', 1, 10);
    storage.set('young', 2, 1000);
    storage.set('forever', 3);
    window.localStorage.setItem('other-app', 'untouched');
    vi.setSystemTime(new Date('2025-01-01T00:01:00Z'));
    expect(storage.sweepExpired()).toBe(1);
    expect(storage.get('young')).toBe(2);
    expect(storage.get('forever')).toBe(3);
    expect(window.localStorage.getItem('other-app')).toBe('untouched');
  });

  it('treats a corrupt entry as absent', () => {
    window.localStorage.setItem('pz:bad', '{not json');
    expect(storage.get('bad')).toBeNull();
    window.localStorage.setItem('pz:raw', '"just a string"');
    expect(storage.get('raw')).toBeNull();
  });

  it('has a session variant', () => {
    sessionStore.set('k', true, 5);
    expect(sessionStore.get('k')).toBe(true);
    expect(window.sessionStorage.getItem('pz:k')).not.toBeNull();
  });
});
