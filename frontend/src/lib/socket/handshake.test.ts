import { describe, expect, it, vi } from 'vitest';

// A fresh module each: the state is the page's, as before any page has loaded socket.ts.
async function fresh() {
  vi.resetModules();
  return import('./handshake');
}

describe('handshake', () => {
  it('builds the auth from the token getter and the extras, leaving empty values out', async () => {
    const h = await fresh();
    expect(h.handshakeAuth('/')).toEqual({});
    h.setSocketAuth('/', () => 'tok');
    h.setSocketAuthExtra('/', () => ({ cartToken: 'cart-1', empty: '', none: null }));
    expect(h.handshakeAuth('/')).toEqual({ token: 'tok', cartToken: 'cart-1' });
    expect(h.handshakeAuth('/store')).toEqual({});
    h.setSocketAuth('/', null);
    expect(h.handshakeAuth('/')).toEqual({ cartToken: 'cart-1' });
    h.resetHandshake();
    expect(h.handshakeAuth('/')).toEqual({});
  });

  it('a reconnect before the socket module is here has nothing to do; after, it reaches it', async () => {
    const h = await fresh();
    expect(() => h.reconnectSocket('/')).not.toThrow();
    const reconnect = vi.fn();
    h.setReconnector(reconnect);
    h.reconnectSocket();
    h.reconnectSocket('/store');
    expect(reconnect.mock.calls).toEqual([['/'], ['/store']]);
  });
});
