import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { useQuery } from '@/hooks/useQuery';
import { useT } from '@/lib/i18n';
import { formatFen } from '@/lib/money';
import { getDeductionRule } from '../api/members';
import type { DeductionRule } from '@/lib/api/types';
import { guideExamples } from '../points';
import { usePageTitle } from './usePageTitle';
import './Member.css';

/** /memberPointdeduction: the rate, the cap, the minimum and worked examples, all from GET /points/deduction-rule. */
export function DeductionGuidePage() {
  const t = useT();
  const q = useQuery('points-deduction-rule', (signal) => getDeductionRule(signal));
  usePageTitle(t('points.guide.title'));
  return (
    <div className="mpage">
      <Header title={t('points.guide.title')} fallback="/my/member/index" />
      {!q.data ? <Loading page error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} /> : <Guide rule={q.data} />}
    </div>
  );
}

/** The percentage a share reads as: 0.5 → "50". */
export function sharePercent(share: number): string {
  return String(Math.round(share * 1000) / 10);
}

function Guide({ rule }: { rule: DeductionRule }) {
  const t = useT();
  const examples = guideExamples(rule);
  return (
    <div className="mpage__body">
      <section className="mpage__card mguide" data-testid="guide-rule">
        <div className="mguide__fact">
          <strong data-testid="guide-rate">{t('points.guide.rate', { points: rule.pointsPerYuan })}</strong>
          <small>{t('points.guide.rateHint')}</small>
        </div>
        <div className="mguide__fact">
          <strong data-testid="guide-cap">{t('points.guide.cap', { pct: sharePercent(rule.maxShareOfOrder) })}</strong>
          <small>{t('points.guide.capHint')}</small>
        </div>
        <div className="mguide__fact">
          <strong data-testid="guide-min">{t('points.guide.min', { n: rule.minPoints })}</strong>
          <small>{t('points.guide.minHint')}</small>
        </div>
      </section>
      <section className="mpage__card">
        <h2 className="mpage__cardTitle">{t('points.guide.examples')}</h2>
        <ul className="mguide__examples" data-testid="guide-examples">
          {examples.map((e, i) => (
            <li key={i} data-testid={`guide-example-${i}`} data-save={formatFen(e.deduction.amountFen)}>
              {e.deduction.usablePoints > 0
                ? t('points.guide.example', {
                    order: formatFen(e.orderFen),
                    points: e.points,
                    used: e.deduction.usablePoints,
                    amount: formatFen(e.deduction.amountFen),
                    pay: formatFen(e.payFen),
                  })
                : t('points.guide.exampleNone', { order: formatFen(e.orderFen), points: e.points, min: rule.minPoints })}
            </li>
          ))}
        </ul>
      </section>
      <section className="mpage__card">
        <h2 className="mpage__cardTitle">{t('points.guide.howTitle')}</h2>
        <ol className="mrules">
          <li>{t('points.guide.how1')}</li>
          <li>{t('points.guide.how2')}</li>
          <li>{t('points.guide.how3')}</li>
        </ol>
      </section>
    </div>
  );
}
