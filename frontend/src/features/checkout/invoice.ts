/**
 * The invoice form's rules, the same as the server's (actors domain/ordering/invoice.rs), so the customer
 * sees what is wrong while typing; and the last invoice used, remembered per user.
 */
import { storage } from '@/lib/storage';

export type InvoiceKind = 'personal' | 'company';

export interface InvoiceDraft {
  kind: InvoiceKind;
  title: string;
  taxNo: string;
  email: string;
}

export type InvoiceField = 'title' | 'taxNo' | 'email';
export type InvoiceProblem =
  | 'titleEmpty'
  | 'titleTooLong'
  | 'titleInvisible'
  | 'taxNoRequired'
  | 'taxNoFormat'
  | 'emailEmpty'
  | 'emailTooLong'
  | 'emailFormat';

export const TITLE_MAX = 100;
const EMAIL_MAX = 64;
export const EMPTY_INVOICE: InvoiceDraft = { kind: 'personal', title: '', taxNo: '', email: '' };

// Controls, bidi overrides, zero-width characters and the other invisible format characters
// the server refuses in text others read (validators.rs is_hidden_char).
const HIDDEN_CATEGORY = /[\p{Cc}\p{Cf}]/u;
const HIDDEN_EXTRA: [number, number][] = [[0x034f, 0x034f], [0x115f, 0x1160], [0x180b, 0x180f], [0x2028, 0x2029], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xffa0, 0xffa0]];
const isHidden = (c: string): boolean => {
  const code = c.codePointAt(0) ?? 0;
  return HIDDEN_CATEGORY.test(c) || HIDDEN_EXTRA.some(([lo, hi]) => code >= lo && code <= hi);
};
const EMAIL = /^(?!\.)(?!.*\.\.)[A-Za-z0-9._%+-]+(?<!\.)@(?:(?!-)[A-Za-z0-9-]{1,63}(?<!-)\.)+[A-Za-z]{2,63}$/;

/** Spaces dropped and letters raised, as the server keeps it. */
export const normaliseTaxNo = (raw: string): string => raw.replace(/ /g, '').toUpperCase();

/** The first problem of each field (none when valid). */
export function invoiceProblems(d: InvoiceDraft): Partial<Record<InvoiceField, InvoiceProblem>> {
  const out: Partial<Record<InvoiceField, InvoiceProblem>> = {};
  const title = d.title.trim();
  if (Array.from(title).some(isHidden)) out.title = 'titleInvisible';
  else if (!title) out.title = 'titleEmpty';
  else if (Array.from(title).length > TITLE_MAX) out.title = 'titleTooLong';
  const tax = normaliseTaxNo(d.taxNo.trim());
  if (!tax) {
    if (d.kind === 'company') out.taxNo = 'taxNoRequired';
  } else if (!/^[0-9A-Z]+$/.test(tax) || ![15, 18, 20].includes(tax.length)) {
    out.taxNo = 'taxNoFormat';
  }
  const email = d.email.trim();
  if (!email) out.email = 'emailEmpty';
  else if (Array.from(email).length > EMAIL_MAX) out.email = 'emailTooLong';
  else if (!EMAIL.test(email)) out.email = 'emailFormat';
  return out;
}

/** The body's `invoice`: a personal title sends no tax number unless one was typed. */
export function invoiceBody(d: InvoiceDraft) {
  const taxNo = normaliseTaxNo(d.taxNo.trim());
  return {
    kind: d.kind,
    title: d.title.trim(),
    taxNo: d.kind === 'company' || taxNo ? taxNo : null,
    email: d.email.trim(),
  };
}

const key = (userId: number | string) => `checkout:invoice:${userId}`;

export function loadInvoice(userId: number | string | null | undefined): InvoiceDraft {
  if (userId === null || userId === undefined) return EMPTY_INVOICE;
  const saved = storage.get<Partial<InvoiceDraft>>(key(userId));
  if (!saved || typeof saved !== 'object') return EMPTY_INVOICE;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    kind: saved.kind === 'company' ? 'company' : 'personal',
    title: text(saved.title),
    taxNo: text(saved.taxNo),
    email: text(saved.email),
  };
}

/** After an order was placed with it: the next checkout starts from it. */
export function saveInvoice(userId: number | string | null | undefined, d: InvoiceDraft): void {
  if (userId === null || userId === undefined) return;
  storage.set(key(userId), invoiceBody(d));
}
