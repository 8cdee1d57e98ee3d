import { useState } from 'react';
import { showToast } from '@/components/Toast';
import { isApiError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { setStoreStatus } from '../api/tablet';
import { useBoard } from '../store/board';
import { STORE_STATUSES, type StoreStatus } from '../types';

/**
 * Open / busy / closed, always in the header, with the current one pressed. Tapping one opens the
 * editor below with that status chosen and the notice; nothing changes until "save".
 */
export function StoreStatusBar() {
  const t = useT();
  const store = useBoard((s) => s.store);
  const [draft, setDraft] = useState<{ status: StoreStatus; notice: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const current = store?.status ?? null;

  const choose = (status: StoreStatus) => setDraft((d) => ({ status, notice: d ? d.notice : (store?.notice ?? '') }));
  const save = async () => {
    if (!draft || saving) return;
    setSaving(true);
    try {
      const notice = draft.notice.trim();
      useBoard.getState().setStore(await setStoreStatus(draft.status, notice || null));
      setDraft(null);
      showToast(t('tablet.status.saved'), 2000);
    } catch (e) {
      if (!(isApiError(e) && e.isAuth)) showToast(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="tab-status" data-testid="tablet-store-status" data-status={current ?? ''}>
      <div className="tab-seg" role="group" aria-label={t('tablet.status.title')}>
        {STORE_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            className={`tab-seg__btn tab-seg__btn--${s}${(draft?.status ?? current) === s ? ' tab-seg__btn--on' : ''}`}
            aria-pressed={current === s}
            onClick={() => choose(s)}
            data-testid={`tablet-status-${s}`}
          >
            {t(`tablet.status.${s}`)}
          </button>
        ))}
      </div>
      {store?.notice && !draft && (
        <span className="tab-status__notice" title={store.notice}>
          {store.notice}
        </span>
      )}
      {draft && (
        <div className="tab-status__editor" data-testid="tablet-status-editor">
          <input
            className="tab-input"
            value={draft.notice}
            maxLength={200}
            placeholder={t('tablet.status.noticePlaceholder')}
            onChange={(e) => setDraft({ ...draft, notice: e.target.value })}
            data-testid="tablet-notice"
            aria-label={t('tablet.status.notice')}
          />
          <button type="button" className="tab-btn tab-btn--ghost" onClick={() => setDraft(null)}>
            {t('common.cancel')}
          </button>
          <button type="button" className="tab-btn tab-btn--go" disabled={saving} onClick={() => void save()} data-testid="tablet-status-save">
            {t('tablet.status.save')}
          </button>
        </div>
      )}
    </div>
  );
}
