import { useT } from '@/lib/i18n';
import { RATINGS } from '../comment';

/** A rating as stars; with `onChange` the stars are a radio group. */
export function Stars({ value, onChange }: { value: number; onChange?: (rating: number) => void }) {
  const t = useT();
  if (!onChange) {
    return (
      <span className="stars" role="img" aria-label={t('order.comment.rated', { n: value })} data-rating={value}>
        {RATINGS.map((r) => (
          <span key={r} className={`stars__star${r <= value ? ' stars__star--on' : ''}`} aria-hidden="true">
            ★
          </span>
        ))}
      </span>
    );
  }
  return (
    <span className="stars stars--input" role="radiogroup" aria-label={t('order.comment.rating')}>
      {RATINGS.map((r) => (
        <button
          key={r}
          type="button"
          role="radio"
          aria-checked={r === value}
          aria-label={t('order.comment.rated', { n: r })}
          className={`stars__star${r <= value ? ' stars__star--on' : ''}`}
          onClick={() => onChange(r)}
          data-testid={`rating-${r}`}
        >
          ★
        </button>
      ))}
    </span>
  );
}
