/** /order/status?orderNo=…[&paymentId=…][&customestatus=1] (spec ordering §2, §4 payment flow 5). */
export function statusPath(orderNo: string, opts: { paymentId?: string | null; failed?: boolean } = {}): string {
  const q = new URLSearchParams({ orderNo });
  if (opts.paymentId) q.set('paymentId', opts.paymentId);
  if (opts.failed) q.set('customestatus', '1');
  return `/order/status?${q.toString()}`;
}
