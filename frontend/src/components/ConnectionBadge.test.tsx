import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18n } from '@/lib/i18n';
import { getSocket, getSocketStatus, resetSockets } from '@/lib/socket';
import { io, lastSocket, resetFakeSockets } from '@/test/fakeSocket';
import { mockApi } from '@/test/mockApi';
import { renderApp, resetApp } from '@/test/renderApp';
import { ConnectionBadge } from './ConnectionBadge';

vi.mock('socket.io-client', async () => (await import('@/test/fakeSocket')).socketIoMock);

beforeEach(() => {
  resetSockets();
  resetFakeSockets();
  useI18n.setState({ lang: 'zh' });
});
afterEach(() => {
  resetSockets();
  vi.unstubAllGlobals();
});

describe('ConnectionBadge', () => {
  it('shows nothing while no feature opened a socket, nor while connected', () => {
    render(<ConnectionBadge />);
    expect(screen.queryByTestId('connection-badge')).toBeNull();
    expect(io).not.toHaveBeenCalled();
    act(() => {
      getSocket('/');
    });
    expect(screen.queryByTestId('connection-badge')).toBeNull();
    act(() => lastSocket('/').serverConnect());
    expect(screen.queryByTestId('connection-badge')).toBeNull();
  });

  it('says reconnecting, then offline, in the current language', () => {
    render(<ConnectionBadge />);
    act(() => {
      getSocket('/');
      lastSocket('/').serverConnect();
      lastSocket('/').drop();
    });
    expect(screen.getByTestId('connection-badge')).toHaveTextContent('重新连接中…');
    act(() => useI18n.setState({ lang: 'en' }));
    expect(screen.getByTestId('connection-badge')).toHaveTextContent('Reconnecting…');
    act(() => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('You are offline');
    act(() => useI18n.setState({ lang: 'zh' }));
    expect(screen.getByRole('alert')).toHaveTextContent('网络已断开，请检查网络!');
  });

  it('offers a retry when the server refused the connection', async () => {
    render(<ConnectionBadge namespace="/store" />);
    act(() => {
      getSocket('/store');
      lastSocket('/store').connectError('invalid token', { refused: true });
    });
    expect(screen.getByTestId('connection-badge')).toHaveTextContent('实时更新已断开');
    await userEvent.click(screen.getByRole('button', { name: '重试' }));
    expect(lastSocket('/store').connectCalls).toBe(2);
    expect(getSocketStatus('/store').status).toBe('connecting');
  });
});

describe('the app layout', () => {
  it('opens no socket on a page that needs none', async () => {
    resetApp();
    mockApi({ 'GET /system/page-switch': () => ({ grayPageList: [], use1i8n: true, productSearch: true }) });
    renderApp('/login');
    await screen.findAllByRole('button');
    expect(io).not.toHaveBeenCalled();
    expect(screen.queryByTestId('connection-badge')).toBeNull();
  });
});
