/**
 * Following the pay instructions of POST /payments (spec ordering §4 payment flow step 4): a
 * `url` is where the browser goes (H5 flows, the sandbox cashier); `html` is a form that submits
 * itself (set into the page, then `form.submit()`); app methods answer `payInfo` / `tn` for the
 * native SDK, which a browser cannot run: the page shows them. `offline` answers nothing.
 */
import type { PaymentCreated } from '@/lib/api/types';

export type Handoff =
  | { kind: 'url'; url: string }
  | { kind: 'html'; html: string }
  | { kind: 'app'; payInfo: string | null; tn: string | null }
  | { kind: 'none' };

/** Only http(s) addresses (or paths of this site) are followed: never `javascript:` and the like. */
export function safeUrl(url: string, base: string): string | null {
  try {
    const u = new URL(url, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** What to do with a created payment (pure). */
export function handoffOf(p: Pick<PaymentCreated, 'url' | 'html' | 'payInfo' | 'tn'>, base: string): Handoff {
  const url = p.url ? safeUrl(p.url, base) : null;
  if (url) return { kind: 'url', url };
  if (p.html && p.html.trim()) return { kind: 'html', html: p.html };
  if (p.payInfo || p.tn) return { kind: 'app', payInfo: p.payInfo ?? null, tn: p.tn ?? null };
  return { kind: 'none' };
}

export interface HandoffEnv {
  assign: (url: string) => void;
  document: Document;
}

const browserEnv = (): HandoffEnv => ({ assign: (url) => window.location.assign(url), document });

/**
 * Leaves for the provider: answers true when the page is on its way out (a redirect or a form
 * submitted), false when there is nothing the browser can follow.
 */
export function performHandoff(h: Handoff, env: HandoffEnv = browserEnv()): boolean {
  if (h.kind === 'url') {
    env.assign(h.url);
    return true;
  }
  if (h.kind === 'html') {
    const holder = env.document.createElement('div');
    holder.hidden = true;
    holder.setAttribute('data-testid', 'pay-form-holder');
    holder.innerHTML = h.html;
    env.document.body.appendChild(holder);
    const form = holder.querySelector('form');
    if (!form) {
      holder.remove();
      return false;
    }
    // HTMLFormElement.prototype.submit: a control named "submit" cannot shadow it.
    HTMLFormElement.prototype.submit.call(form);
    return true;
  }
  return false;
}
