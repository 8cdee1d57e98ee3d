import { afterEach, describe, expect, it, vi } from 'vitest';
import { handoffOf, performHandoff, safeUrl } from './handoff';

const BASE = 'https://shop.test/order/submit';
const none = { url: null, html: null, payInfo: null, tn: null };

afterEach(() => {
  document.body.innerHTML = '';
});

describe('handoffOf', () => {
  it('goes to the url when there is one (the sandbox cashier)', () => {
    expect(handoffOf({ ...none, url: '/sandbox/cashier/p1', html: '<form></form>' }, BASE)).toEqual({ kind: 'url', url: 'https://shop.test/sandbox/cashier/p1' });
  });
  it('else submits the html form, else shows the app instructions, else nothing', () => {
    expect(handoffOf({ ...none, html: '<form action="x"></form>' }, BASE).kind).toBe('html');
    expect(handoffOf({ ...none, payInfo: 'app_id=1&sign=…' }, BASE)).toEqual({ kind: 'app', payInfo: 'app_id=1&sign=…', tn: null });
    expect(handoffOf({ ...none, tn: '201611' }, BASE)).toEqual({ kind: 'app', payInfo: null, tn: '201611' });
    expect(handoffOf(none, BASE)).toEqual({ kind: 'none' });
  });
  it('never follows a script address', () => {
    expect(safeUrl('javascript:alert(1)', BASE)).toBeNull();
    expect(safeUrl('https://openapi.alipay.com/gateway.do?x=1', BASE)).toBe('https://openapi.alipay.com/gateway.do?x=1');
    expect(handoffOf({ ...none, url: 'javascript:alert(1)' }, BASE)).toEqual({ kind: 'none' });
  });
});

describe('performHandoff', () => {
  it('assigns the url', () => {
    const assign = vi.fn();
    expect(performHandoff({ kind: 'url', url: 'https://pay.test/x' }, { assign, document })).toBe(true);
    expect(assign).toHaveBeenCalledWith('https://pay.test/x');
  });
  it('sets the form into the page and submits it', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    const html = '<form id="alipaysubmit" action="https://openapi.alipay.com/gateway.do" method="POST"><input name="biz_content" value="{}"><input type="submit" name="submit" value="ok"></form><script>document.forms[0].submit()</script>';
    expect(performHandoff({ kind: 'html', html }, { assign: vi.fn(), document })).toBe(true);
    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit.mock.contexts[0]).toBe(document.getElementById('alipaysubmit'));
  });
  it('answers false when there is nothing a browser can follow', () => {
    expect(performHandoff({ kind: 'html', html: '<p>no form</p>' }, { assign: vi.fn(), document })).toBe(false);
    expect(document.querySelector('[data-testid="pay-form-holder"]')).toBeNull();
    expect(performHandoff({ kind: 'app', payInfo: 'x', tn: null }, { assign: vi.fn(), document })).toBe(false);
  });
});
