/** Money: integer fen inside the app; yuan with 2 decimals only when shown. */

export type Fen = number;

/** Yuan as the API sends it (89.9) to integer fen (8990). */
export function toFen(yuan: number | null | undefined): Fen {
  if (yuan === null || yuan === undefined || !Number.isFinite(yuan)) return 0;
  return Math.round(yuan * 100);
}

/** 8990 → "89.90". */
export function fenToYuanText(fen: Fen): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}${yuan}.${rest.toString().padStart(2, '0')}`;
}

/** 8990 → "¥89.90". */
export function formatFen(fen: Fen): string {
  const text = fenToYuanText(fen);
  return text.startsWith('-') ? `-¥${text.slice(1)}` : `¥${text}`;
}

export function formatYuan(yuan: number): string {
  return formatFen(toFen(yuan));
}
