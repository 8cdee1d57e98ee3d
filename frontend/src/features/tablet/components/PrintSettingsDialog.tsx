import { useT } from '@/lib/i18n';
import { usePrint, type Paper } from '../store/print';
import { Modal } from './Modal';

const PAPERS: Paper[] = ['80', '58'];

/** The ticket's paper width and the automatic print on accept, kept on this tablet. */
export function PrintSettingsDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const settings = usePrint((s) => s.settings);
  const update = usePrint((s) => s.update);
  return (
    <Modal title={t('tablet.print.settings')} onClose={onClose} testId="tablet-print-settings">
      <fieldset className="tab-print-set">
        <legend>{t('tablet.print.paper')}</legend>
        {PAPERS.map((p) => (
          <label key={p} className="tab-print-set__opt">
            <input type="radio" name="paper" checked={settings.paper === p} onChange={() => update({ paper: p })} data-testid={`tablet-paper-${p}`} />
            {t(p === '80' ? 'tablet.print.paper80' : 'tablet.print.paper58')}
          </label>
        ))}
      </fieldset>
      <label className="tab-print-set__opt">
        <input type="checkbox" checked={settings.autoPrint} onChange={(e) => update({ autoPrint: e.target.checked })} data-testid="tablet-autoprint" />
        {t('tablet.print.auto')}
      </label>
      <p className="tab-muted">{t('tablet.print.autoHint')}</p>
    </Modal>
  );
}
