import { useT } from '@/lib/i18n';
import { MinusIcon, PlusIcon } from './Icons';
import './Stepper.css';

export interface StepperProps {
  value: number;
  min?: number;
  max?: number;
  onChange: (value: number) => void;
  label?: string;
  size?: 'sm' | 'md';
  /** Hide "−" and the number at the minimum (extras at 0). */
  compactAtMin?: boolean;
}

export function Stepper({ value, min = 0, max = 99, onChange, label, size = 'md', compactAtMin }: StepperProps) {
  const t = useT();
  const atMin = value <= min;
  const hideLeft = compactAtMin && atMin;
  return (
    <div className={`stepper stepper--${size}`} role="group" aria-label={label}>
      {!hideLeft && (
        <>
          <button
            type="button"
            className="stepper__btn"
            disabled={atMin}
            onClick={() => onChange(Math.max(min, value - 1))}
            aria-label={t('product.decrease')}
          >
            <MinusIcon />
          </button>
          <span className="stepper__value" aria-live="polite">
            {value}
          </span>
        </>
      )}
      <button
        type="button"
        className="stepper__btn stepper__btn--plus"
        disabled={value >= max}
        onClick={() => onChange(Math.min(max, value + 1))}
        aria-label={t('product.increase')}
      >
        <PlusIcon />
      </button>
    </div>
  );
}
