import { Component, Suspense, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Loading } from '@/components/Loading';
import { loadPageWords, useT } from '@/lib/i18n';
import { isChunkLoadError, loadChunk } from './chunkLoad';

/**
 * One component of a route chunk, loaded on first render through loadChunk (retries, then one
 * reload), together with the pages' words (the entry has only the first screen's). Several
 * components of one module share its chunk: the import is the same.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props: the component's own type is kept
export function lazyRoute<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  const withWords = () => Promise.all([load(), loadPageWords()]).then(([module]) => module);
  return lazy(async () => ({ default: (await loadChunk(withWords))[name] }));
}

let prefetched = false;
const ignore = (): void => undefined;

/**
 * Fetches route chunks once the page is idle (once per page load). A failure is ignored: it was
 * only a head start, and the route itself retries when it is shown. Returns the canceller.
 */
export function prefetchWhenIdle(loads: readonly (() => Promise<unknown>)[]): () => void {
  if (prefetched) return ignore;
  const run = () => {
    prefetched = true;
    for (const load of loads) load().catch(ignore);
  };
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 1000);
  return () => window.clearTimeout(id);
}

/** The route's place in a layout: the loading screen while its chunk comes, the failure if it does not. */
export function RouteSuspense({ children }: { children: ReactNode }) {
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<RouteLoading />}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}

function RouteLoading() {
  return (
    <div data-testid="route-loading">
      <Loading page />
    </div>
  );
}

/** The failure, with a button: a reload the user asked for is not a loop. */
export function ChunkFailed({ onReload = () => window.location.reload() }: { onReload?: () => void }) {
  const t = useT();
  return (
    <div data-testid="chunk-failed">
      <Loading page error={t('chunk.failed')} reloadText={t('common.retry')} onReload={onReload} />
    </div>
  );
}

/** A part of the layout beside the page (dialogs): nothing while its chunk comes, nor if it does not. */
export function QuietSuspense({ children }: { children: ReactNode }) {
  return (
    <ChunkErrorBoundary quiet>
      <Suspense fallback={null}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}

interface BoundaryState {
  error: unknown;
}

/** Shows chunk failures; any other error is thrown on to whatever handled it before. */
class ChunkErrorBoundary extends Component<{ children: ReactNode; quiet?: boolean }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (isChunkLoadError(error)) return this.props.quiet ? null : <ChunkFailed />;
    throw error;
  }
}
