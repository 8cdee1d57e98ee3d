import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { loadDictionary, loadPageWords } from '@/lib/i18n';
import { loadSocketClient } from '@/lib/socket';

// Screens that show the cart keep it live over the "/" socket: in jsdom every test gets the fake
// socket.io client (it never connects unless a test drives it; see fakeSocket.ts).
vi.mock('socket.io-client', async () => (await import('./fakeSocket')).socketIoMock);

// The app fetches the other pages' words with their chunks and the English words before its first
// render (main.tsx); tests render any page and switch at will.
await loadPageWords();
await loadDictionary('en');
// Likewise socket.io-client (its own chunk in the app): tests drive the sockets synchronously.
await loadSocketClient();

// jsdom does not lay out or scroll.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;
Element.prototype.scrollTo = () => undefined;

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

afterEach(() => {
  cleanup();
});
