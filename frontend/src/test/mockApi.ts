import { vi } from 'vitest';
import { makeStore } from './fixtures';

export type Handler = (url: URL, init?: RequestInit) => { status?: number; body: unknown } | unknown;

/**
 * Mocks fetch with a table of `METHOD /path` (under /api/v1) → handler. A handler answers data
 * (wrapped in the "00" envelope) or `{status, body}` for anything else. Unknown paths answer 404.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: { method: string; url: URL; headers: Record<string, string> }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    calls.push({ method, url, headers: (init?.headers ?? {}) as Record<string, string> });
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const handler = routes[`${method} ${path}`] ?? Object.entries(routes).find(([k]) => matches(k, method, path))?.[1];
    if (!handler) {
      return new Response(JSON.stringify({ errCode: '404', errMsg: '接口不存在', data: null }), { status: 404 });
    }
    const result = handler(url, init);
    if (result && typeof result === 'object' && 'body' in result && 'status' in result) {
      const r = result as { status: number; body: unknown };
      return new Response(JSON.stringify(r.body), { status: r.status });
    }
    return new Response(JSON.stringify({ errCode: '00', errMsg: '', data: result }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/** `GET /stores/:code` style patterns. */
function matches(pattern: string, method: string, path: string): boolean {
  const [m, p] = pattern.split(' ');
  if (m !== method || !p) return false;
  const re = new RegExp(`^${p.replace(/:[^/]+/g, '[^/]+')}$`);
  return re.test(path);
}

/**
 * `mockApi` with what every customer page asks first (the page switches, the default store and
 * a store by code: the fixture store) underneath `routes`.
 */
export function mockAppApi(routes: Record<string, Handler>) {
  return mockApi({
    'GET /system/page-switch': () => ({ grayPageList: [], use1i8n: true, productSearch: true }),
    'GET /stores/default': () => makeStore(),
    'GET /stores/:code': () => makeStore(),
    ...routes,
  });
}
