import { useState } from 'react';
import { useT, type MessageKey } from '@/lib/i18n';
import { shortOrderNo } from '../stages';
import type { TabletOrder } from '../types';
import { Modal } from './Modal';

const PRESETS: MessageKey[] = ['tablet.refuse.r1', 'tablet.refuse.r2', 'tablet.refuse.r3', 'tablet.refuse.r4'];
/** The server keeps 100 characters of a reason. */
const MAX_REASON = 100;

export interface RefuseDialogProps {
  order: TabletOrder;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** A reason is required: the customer reads it, and a paid order is refunded. */
export function RefuseDialog({ order, busy, onConfirm, onClose }: RefuseDialogProps) {
  const t = useT();
  const [reason, setReason] = useState('');
  const text = reason.trim();
  return (
    <Modal
      title={`${t('tablet.refuse.title')} · #${shortOrderNo(order.orderNo)}`}
      onClose={onClose}
      testId="tablet-refuse-dialog"
      footer={
        <>
          <button type="button" className="tab-btn tab-btn--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="tab-btn tab-btn--danger" disabled={!text || busy} onClick={() => onConfirm(text)} data-testid="tablet-refuse-confirm">
            {t('tablet.refuse.confirm')}
          </button>
        </>
      }
    >
      <div className="tab-presets">
        {PRESETS.map((key) => (
          <button key={key} type="button" className={`tab-chip${reason === t(key) ? ' tab-chip--on' : ''}`} onClick={() => setReason(t(key))}>
            {t(key)}
          </button>
        ))}
      </div>
      <input
        className="tab-input"
        value={reason}
        maxLength={MAX_REASON}
        placeholder={t('tablet.refuse.placeholder')}
        onChange={(e) => setReason(e.target.value)}
        data-testid="tablet-refuse-reason"
        aria-label={t('tablet.refuse.title')}
        autoFocus
      />
    </Modal>
  );
}
