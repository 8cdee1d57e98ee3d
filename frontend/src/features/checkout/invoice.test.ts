import { beforeEach, describe, expect, it } from 'vitest';
import { invoiceBody, invoiceProblems, loadInvoice, saveInvoice, type InvoiceDraft } from './invoice';

const CODE = '91310000MA1FL8XQ3K';
const d = (over: Partial<InvoiceDraft>): InvoiceDraft => ({ kind: 'company', title: '某某公司', taxNo: CODE, email: 'a@b.cn', ...over });

describe('the invoice rules (as actors domain/ordering/invoice.rs)', () => {
  it.each([
    [d({}), {}],
    [d({ kind: 'personal', taxNo: '' }), {}],
    [d({ taxNo: '123456789012345' }), {}],
    [d({ taxNo: '12345678901234567890' }), {}],
    [d({ taxNo: '91310000ma1fl8xq3k' }), {}],
    [d({ title: '票'.repeat(100) }), {}],
    [d({ title: ' ' }), { title: 'titleEmpty' }],
    [d({ title: '票'.repeat(101) }), { title: 'titleTooLong' }],
    [d({ title: '某\u200B公司' }), { title: 'titleInvisible' }],
    [d({ title: '某\u202E公司' }), { title: 'titleInvisible' }],
    [d({ taxNo: '' }), { taxNo: 'taxNoRequired' }],
    [d({ taxNo: '1234567890123456' }), { taxNo: 'taxNoFormat' }],
    [d({ taxNo: '91310000MA1FL8XQ3-' }), { taxNo: 'taxNoFormat' }],
    [d({ kind: 'personal', taxNo: '123' }), { taxNo: 'taxNoFormat' }],
    [d({ email: '' }), { email: 'emailEmpty' }],
    [d({ email: 'a@b' }), { email: 'emailFormat' }],
    [d({ email: 'a..b@c.cn' }), { email: 'emailFormat' }],
    [d({ email: `${'a'.repeat(60)}@b.cn` }), { email: 'emailTooLong' }],
  ])('%o → %o', (draft, want) => {
    expect(invoiceProblems(draft)).toEqual(want);
  });

  it('sends the values trimmed, the tax number raised, none for a personal title without one', () => {
    expect(invoiceBody(d({ title: ' X ', taxNo: '9131 0000 ma1f l8xq 3k', email: ' a@b.cn ' }))).toEqual({ kind: 'company', title: 'X', taxNo: CODE, email: 'a@b.cn' });
    expect(invoiceBody(d({ kind: 'personal', taxNo: '' })).taxNo).toBeNull();
  });
});

describe('the remembered invoice', () => {
  beforeEach(() => localStorage.clear());

  it('is kept per user', () => {
    saveInvoice(7, d({}));
    expect(loadInvoice(7)).toEqual(d({}));
    expect(loadInvoice(8)).toEqual({ kind: 'personal', title: '', taxNo: '', email: '' });
    expect(loadInvoice(null).title).toBe('');
  });
});
