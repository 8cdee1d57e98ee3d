import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18n } from '@/lib/i18n';
import { ChunkLoadError, RELOAD_KEY } from './chunkLoad';
import { ChunkFailed, QuietSuspense, RouteSuspense, lazyRoute } from './lazyRoute';

function Throws({ error }: { error: unknown }): ReactNode {
  throw error;
}

/** Stands for whatever handled errors above the route before. */
class Outer extends Component<{ children: ReactNode }, { caught: string | null }> {
  override state = { caught: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { caught: String(error) };
  }
  override render() {
    return this.state.caught ? <p>outer: {this.state.caught}</p> : this.props.children;
  }
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  act(() => useI18n.getState().setLang('zh'));
});

describe('RouteSuspense', () => {
  for (const [lang, message, button] of [
    ['zh', '页面加载失败，请检查网络后重新加载', '重新加载'],
    ['en', 'This page could not be loaded. Check your connection and reload.', 'Reload'],
  ] as const) {
    it(`shows a chunk failure with its reload button (${lang})`, async () => {
      act(() => useI18n.getState().setLang(lang));
      render(
        <RouteSuspense>
          <Throws error={new ChunkLoadError(new TypeError('Failed to fetch'), false)} />
        </RouteSuspense>,
      );
      expect(screen.getByRole('alert')).toHaveTextContent(message);
      expect(screen.getByRole('button', { name: button })).toBeInTheDocument();
    });
  }

  it('passes any other error on to the boundary above', () => {
    render(
      <Outer>
        <RouteSuspense>
          <Throws error={new Error('a bug, not a chunk')} />
        </RouteSuspense>
      </Outer>,
    );
    expect(screen.getByText('outer: Error: a bug, not a chunk')).toBeInTheDocument();
    expect(screen.queryByTestId('chunk-failed')).toBeNull();
  });

  it('the button reloads', async () => {
    const onReload = vi.fn();
    render(<ChunkFailed onReload={onReload} />);
    await userEvent.click(screen.getByRole('button', { name: '重新加载' }));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it('shows the loading screen while the chunk comes, then the page', async () => {
    let resolve: (m: { Page: () => ReactNode }) => void = () => undefined;
    const Page = lazyRoute(() => new Promise<{ Page: () => ReactNode }>((r) => (resolve = r)), 'Page');
    render(
      <RouteSuspense>
        <Page />
      </RouteSuspense>,
    );
    expect(screen.getByTestId('route-loading')).toHaveTextContent('加载中...');
    await act(async () => resolve({ Page: () => <p>the page</p> }));
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(screen.queryByTestId('route-loading')).toBeNull();
  });

  it('a chunk that keeps failing after a recent reload ends in the error, not another reload', async () => {
    window.sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
    const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const Page = lazyRoute<{ Page: () => ReactNode }, 'Page'>(load, 'Page');
    render(
      <RouteSuspense>
        <Page />
      </RouteSuspense>,
    );
    // Three tries, 0.5 s and 1.5 s apart (real timers: the retry pauses are short).
    expect(await screen.findByTestId('chunk-failed', undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
  });
});

describe('QuietSuspense', () => {
  it('shows nothing while the chunk comes, then its part of the layout', async () => {
    let resolve: (m: { Dialogs: () => ReactNode }) => void = () => undefined;
    const Dialogs = lazyRoute(() => new Promise<{ Dialogs: () => ReactNode }>((r) => (resolve = r)), 'Dialogs');
    const { container } = render(
      <QuietSuspense>
        <Dialogs />
      </QuietSuspense>,
    );
    expect(container).toBeEmptyDOMElement();
    await act(async () => resolve({ Dialogs: () => <p>the dialogs</p> }));
    expect(await screen.findByText('the dialogs')).toBeInTheDocument();
  });

  it('shows nothing for a chunk failure: the page beside it stays', () => {
    render(
      <>
        <p>the page</p>
        <QuietSuspense>
          <Throws error={new ChunkLoadError(new TypeError('Failed to fetch'), false)} />
        </QuietSuspense>
      </>,
    );
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByTestId('chunk-failed')).toBeNull();
  });

  it('passes any other error on', () => {
    render(
      <Outer>
        <QuietSuspense>
          <Throws error={new Error('a bug, not a chunk')} />
        </QuietSuspense>
      </Outer>,
    );
    expect(screen.getByText('outer: Error: a bug, not a chunk')).toBeInTheDocument();
  });
});
