import { TicketIcon } from '@/components/Icons';
import { useT } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { Cart } from '@/lib/api/types';
import { ruleChoices, ruleGaps, ruleReasonText } from '../cartView';
import { useCart } from '../store/cart';
import { cartToast } from './cartToast';

/**
 * The promotions of the cart: the rules applied (with what each saves), for a group of
 * promotions that exclude each other a radio choice (POST /cart/rules) where each option left
 * out says why, and the reductions the cart falls short of (再买¥x可享).
 */
export function CartPromotions({ cart }: { cart: Cart }) {
  const t = useT();
  const choose = useCart((s) => s.chooseRule);
  const busy = useCart((s) => s.busy);
  const choices = ruleChoices(cart);
  const applied = cart.orderRefRules ?? [];
  const gaps = ruleGaps(cart);
  if (applied.length === 0 && choices.length === 0 && gaps.length === 0) return null;
  return (
    <section className="cart-promos" aria-label={t('cart.promotions')}>
      {applied.length > 0 && (
        <ul className="cart-promos__applied" data-testid="cart-rules">
          {applied.map((r) => (
            <li key={r.ruleId} className="cart-promos__rule" data-testid={`cart-rule-${r.ruleId}`}>
              <TicketIcon className="cart-promos__icon" />
              <span className="cart-promos__name">{r.ruleName}</span>
              <span className="cart-promos__off">-{formatFen(toFen(r.discountAmount))}</span>
            </li>
          ))}
        </ul>
      )}
      {choices.map((choice, i) => (
        <fieldset key={choice.options.map((o) => o.ruleId).join(',')} className="cart-choice" data-testid={`cart-rule-choice-${i}`}>
          <legend className="cart-choice__title">{t('cart.chooseRule')}</legend>
          {choice.options.map((o) => {
            const on = o.ruleId === choice.chosenId;
            return (
              <label key={o.ruleId} className={`cart-choice__opt${on ? ' cart-choice__opt--on' : ''}`}>
                <input
                  type="radio"
                  className="cart-choice__input"
                  name={`rule-choice-${i}`}
                  checked={on}
                  disabled={busy}
                  onChange={() => {
                    if (!on) void choose(o.ruleId).then((r) => cartToast(r));
                  }}
                  data-testid={`cart-rule-option-${o.ruleId}`}
                />
                <span className={`cart-radio${on ? ' cart-radio--on' : ''}`} aria-hidden="true" />
                <span className="cart-choice__text">
                  <strong>{o.ruleName}</strong>
                  {o.description && <small>{o.description}</small>}
                  {!o.applied && o.reason && (
                    <small className="cart-choice__why" data-testid={`cart-rule-why-${o.ruleId}`}>
                      {ruleReasonText(o, cart, t)}
                    </small>
                  )}
                </span>
                {/* What it saves only while choosing it would get it: not for a threshold not reached. */}
                {o.discountAmount > 0 && (o.reason === null || o.reason === 'mutex') && <span className="cart-choice__save">{t('cart.saves', { amount: formatFen(toFen(o.discountAmount)) })}</span>}
              </label>
            );
          })}
        </fieldset>
      ))}
      {gaps.length > 0 && (
        <ul className="cart-promos__gaps" data-testid="cart-rule-gaps">
          {gaps.map((g) => (
            <li key={g.ruleId} className="cart-promos__gap" data-testid={`cart-rule-gap-${g.ruleId}`}>
              {t('cart.ruleGap', { amount: formatFen(g.gap), name: g.name })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
