import { Link } from 'react-router';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { CartPointsDeduction } from '@/lib/api/types';
import { JoinInvite } from './JoinInvite';
import './Member.css';

export interface PointsToggleProps {
  /** The cart's pointsDeduction (null: not a member). */
  deduction: CartPointsDeduction | null;
  on: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
}

/** The points the order may use, from the cart's own figures; a non-member gets the invitation. */
export function pointsToUse(deduction: CartPointsDeduction | null, on: boolean): number {
  return on && deduction && deduction.usablePoints > 0 ? deduction.usablePoints : 0;
}

/** Checkout's "pay with points" switch with what it saves; a non-member sees the way to join. */
export function PointsToggle({ deduction, on, onChange, disabled }: PointsToggleProps) {
  const t = useT();
  if (!deduction) return <JoinInvite compact />;
  const usable = deduction.usablePoints > 0;
  const checked = on && usable;
  return (
    <div className="mtoggle" data-testid="points-toggle" data-usable={deduction.usablePoints} data-on={checked}>
      <span className="mtoggle__text">
        <strong>{t('points.toggle.label')}</strong>
        <small data-testid="points-toggle-hint">
          {usable
            ? t('points.toggle.use', { points: deduction.usablePoints, amount: formatFen(toFen(deduction.amount)) })
            : t('points.toggle.none', { n: deduction.available })}
          <Link to="/memberPointdeduction" className="mtoggle__guide">
            {t('points.toggle.guide')}
          </Link>
        </small>
      </span>
      {checked && (
        <span className="mtoggle__save" data-testid="points-toggle-save">
          -{formatFen(toFen(deduction.amount))}
        </span>
      )}
      <label className={`mswitch${checked ? ' mswitch--on' : ''}${!usable || disabled ? ' mswitch--off' : ''}`}>
        <input
          type="checkbox"
          role="switch"
          className="mswitch__input"
          checked={checked}
          disabled={!usable || disabled}
          onChange={(e) => onChange(e.target.checked)}
          aria-label={t('points.toggle.label')}
          data-testid="points-toggle-input"
        />
        <span className="mswitch__knob" aria-hidden="true" />
      </label>
    </div>
  );
}
