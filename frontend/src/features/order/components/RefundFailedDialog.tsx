import { Dialog } from '@/components/Dialog';
import { PhoneIcon } from '@/components/Icons';
import { isApiError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { telHref } from './OrderCards';

/** Spec ordering §5, §8: a refund the provider refused is errCode 01, with the store's phone. */
export const REFUND_FAILED = '01';

/** The store phone of a refund failure (`data.storeTel`), else `fallback`; null when `e` is not one. */
export function refundFailure(e: unknown, fallback: string | undefined): { tel: string } | null {
  if (!isApiError(e) || e.errCode !== REFUND_FAILED) return null;
  const data = e.data as { storeTel?: unknown } | null;
  const tel = data && typeof data.storeTel === 'string' && data.storeTel ? data.storeTel : (fallback ?? '');
  return { tel };
}

/** 退券失败，请联系客服 with the store phone and 我知道了. */
export function RefundFailedDialog({ tel, onClose }: { tel: string | null; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog open={tel !== null} title={t('order.refundFailed')} confirmText={t('common.ok')} onConfirm={onClose} onClose={onClose}>
      <div className="ost-refund" data-testid="refund-failed">
        <p>{t('order.refundFailedHint')}</p>
        {tel ? (
          <a className="ost-store__tel" href={telHref(tel)} data-testid="refund-failed-tel">
            <PhoneIcon />
            <span>{tel}</span>
          </a>
        ) : null}
      </div>
    </Dialog>
  );
}
