import { useMemo, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Header } from '@/components/Header';
import { CheckIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { Price } from '@/components/Price';
import { Stepper } from '@/components/Stepper';
import { showToast } from '@/components/Toast';
import { useQuery } from '@/hooks/useQuery';
import { now } from '@/lib/clock';
import { useLang, useT, type Lang, type TFunction } from '@/lib/i18n';
import { formatFen, toFen } from '@/lib/money';
import type { FlavorOption, ProductDetail, StyleGroup } from '@/lib/api/types';
import type { OrderType } from '@/lib/orders';
import { getProduct, productImages } from '../api/product';
import {
  choiceKey,
  defaultSelection,
  flavourPriceFen,
  isCombo,
  missingChoices,
  normalizeSelection,
  pastriesForSize,
  priceOf,
  PRODUCT_TYPE,
  type Missing,
  type Selection,
} from '../pricing';
import { FlavourHalves } from './FlavourHalves';
import { Gallery } from './Gallery';
import './ProductBuilder.css';

export interface AddedItem {
  product: ProductDetail;
  selection: Selection;
  unitFen: number;
  totalFen: number;
}

export interface ProductBuilderProps {
  productCode: string;
  storeCode: string;
  orderType: OrderType;
  /** Called with a complete item (the app puts it into the cart). */
  onAdd?: (item: AddedItem) => void;
}

const DEFAULT_SHOW = 4;

export function ProductBuilder({ productCode, storeCode, orderType, onAdd }: ProductBuilderProps) {
  const t = useT();
  const lang = useLang();
  const q = useQuery(`product:${productCode}:${storeCode}:${orderType}:${lang}`, (signal) =>
    getProduct(productCode, storeCode, orderType, now(), signal),
  );
  return (
    <div className="builder-page">
      <Header title={q.data?.productName ?? ''} fallback="/menu" />
      {q.loading ? (
        <Loading page />
      ) : q.error || !q.data ? (
        <Loading page error={q.error?.message || t('product.loadFailed')} reloadText={t('common.retry')} onReload={q.reload} />
      ) : (
        <Builder key={`${q.data.productCode}:${lang}`} product={q.data} onAdd={onAdd} />
      )}
    </div>
  );
}

function missingText(t: TFunction, m: Missing): string {
  return m.kind === 'flavors' ? t('product.needFlavors', { n: m.count }) : t('product.needCombo', { round: m.roundName, n: m.count });
}

function groupTitle(lang: Lang, style: StyleGroup | null | undefined, fallback: string): string {
  if (!style) return fallback;
  return (lang === 'en' ? style.titleEn || style.title : style.title) || fallback;
}

function Builder({ product, onAdd }: { product: ProductDetail; onAdd?: (item: AddedItem) => void }) {
  const t = useT();
  const lang = useLang();
  const [sel, setSel] = useState<Selection>(() => defaultSelection(product));
  const update = (patch: Partial<Selection>) => setSel((s) => normalizeSelection(product, { ...s, ...patch }));
  const price = priceOf(product, sel);
  const missing = missingChoices(product, sel);
  const style = product.styleOption;
  const show = product.detailPageShowNum;
  const images = useMemo(() => productImages(product), [product]);
  const crusts = pastriesForSize(product, sel.sizeCode);
  const minSale = Math.max(1, product.minSale || 1);

  const add = () => {
    if (product.soldOut) return;
    if (missing.length > 0) {
      showToast(missingText(t, missing[0] as Missing), 2000);
      return;
    }
    onAdd?.({ product, selection: sel, unitFen: price.unitFen, totalFen: price.totalFen });
  };

  return (
    <>
      <div className="builder">
        <Gallery images={images} alt={product.productName} />
        <section className="builder__intro">
          <h2 className="builder__name" data-testid="product-name">
            {product.productName}
          </h2>
          {product.description && <p className="builder__desc">{product.description}</p>}
          {minSale > 1 && <p className="builder__hint">{t('product.minSale', { n: minSale })}</p>}
        </section>

        {product.sizeList.length > 0 && !style?.size?.hidden && (
          <Group title={groupTitle(lang, style?.size, t('product.size'))} limit={show?.size ?? DEFAULT_SHOW} count={product.sizeList.length}>
            {(limit) => (
              <div className={`opts opts--grid${Math.min(limit, product.sizeList.length) === 3 ? ' opts--3' : ''}`}>
                {product.sizeList.slice(0, limit).map((s) => (
                  <Option
                    key={s.sizeCode}
                    on={s.sizeCode === sel.sizeCode}
                    onClick={() => update({ sizeCode: s.sizeCode })}
                    testId={`size-${s.sizeCode}`}
                    label={s.sizeName}
                    sub={formatFen(toFen(s.price))}
                  />
                ))}
              </div>
            )}
          </Group>
        )}

        {crusts.length > 0 && !style?.pastry?.hidden && (
          <Group title={groupTitle(lang, style?.pastry, t('product.pastry'))} limit={show?.pastry ?? DEFAULT_SHOW} count={crusts.length}>
            {(limit) => (
              <div className="opts opts--grid">
                {crusts.slice(0, limit).map((c) => (
                  <Option
                    key={c.pastryCode}
                    on={c.pastryCode === sel.pastryCode}
                    onClick={() => update({ pastryCode: c.pastryCode })}
                    testId={`pastry-${c.pastryCode}`}
                    label={c.pastryName}
                    sub={c.extraPrice > 0 ? `+${formatFen(toFen(c.extraPrice))}` : undefined}
                  />
                ))}
              </div>
            )}
          </Group>
        )}

        {sel.flavorCodes.length > 0 && (
          <FlavourGroup product={product} sel={sel} onChange={(flavorCodes) => update({ flavorCodes })} />
        )}

        {product.sauceList.length > 0 && !style?.sauces?.hidden && (
          <Group title={groupTitle(lang, style?.sauces, t('product.sauce'))} limit={show?.sauces ?? DEFAULT_SHOW} count={product.sauceList.length}>
            {(limit) => (
              <div className="opts opts--grid">
                {product.sauceList.slice(0, limit).map((s) => (
                  <Option
                    key={s.code}
                    on={s.code === sel.sauceCode}
                    onClick={() => update({ sauceCode: s.code })}
                    testId={`sauce-${s.code}`}
                    label={s.name}
                    sub={!s.isDefault && s.price > 0 ? `+${formatFen(toFen(s.price))}` : undefined}
                  />
                ))}
              </div>
            )}
          </Group>
        )}

        {product.baseIngredientList.length > 0 && !style?.spec1?.hidden && (
          <Group
            title={groupTitle(lang, style?.spec1, t('product.base'))}
            hint={t('product.baseHint')}
            limit={show?.spec1 ?? DEFAULT_SHOW}
            count={product.baseIngredientList.length}
          >
            {(limit) => (
              <div className="opts opts--wrap">
                {product.baseIngredientList.slice(0, limit).map((b) => {
                  const removed = sel.removedBase.includes(b.code) || b.soldOut;
                  return (
                    <button
                      key={b.code}
                      type="button"
                      className={`topping${removed ? ' topping--off' : ''}${b.soldOut ? ' topping--soldout' : ''}`}
                      aria-pressed={!removed}
                      disabled={b.soldOut}
                      onClick={() =>
                        update({ removedBase: removed ? sel.removedBase.filter((c) => c !== b.code) : [...sel.removedBase, b.code] })
                      }
                      data-testid={`base-${b.code}`}
                      data-sold-out={b.soldOut ? 'true' : undefined}
                    >
                      {!removed && <CheckIcon />}
                      {b.name}
                      {removed && <span className="topping__off">{t(b.soldOut ? 'product.toppingSoldOut' : 'product.removed')}</span>}
                    </button>
                  );
                })}
              </div>
            )}
          </Group>
        )}

        {product.additionalIngredientList.length > 0 && !style?.spec2?.hidden && (
          <Group title={groupTitle(lang, style?.spec2, t('product.extras'))} limit={show?.spec2 ?? DEFAULT_SHOW} count={product.additionalIngredientList.length}>
            {(limit) => (
              <ul className="extras">
                {product.additionalIngredientList.slice(0, limit).map((x) => (
                  <li key={x.code} className="extras__row" data-testid={`extra-${x.code}`}>
                    <span className="extras__name">
                      {x.name}
                      <small>
                        {x.price > 0 ? `+${formatFen(toFen(x.price))}` : t('product.free')}
                        {x.maxQuantity > 1 ? ` · ${t('product.maxQty', { n: x.maxQuantity })}` : ''}
                      </small>
                    </span>
                    <Stepper
                      size="sm"
                      compactAtMin
                      value={sel.extras[x.code] ?? 0}
                      max={Math.max(1, x.maxQuantity)}
                      onChange={(v) => update({ extras: { ...sel.extras, [x.code]: v } })}
                      label={x.name}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Group>
        )}

        {isCombo(product) &&
          product.comboRounds.map((round) => (
            <ComboRoundGroup
              key={round.roundCode}
              round={round}
              chosen={sel.combo[round.roundCode] ?? []}
              onChange={(keys) => update({ combo: { ...sel.combo, [round.roundCode]: keys } })}
            />
          ))}
      </div>

      {/* In a portal: the page slide (a transform) must not move a fixed bar. */}
      {createPortal(
        <>
          <footer className="actionbar">
            <Stepper value={price.quantity} min={minSale} max={99} onChange={(quantity) => update({ quantity })} label={t('product.quantity')} />
            <div className="actionbar__price" data-testid="builder-price" data-price={formatFen(price.totalFen)}>
              <Price fen={price.totalFen} size="lg" />
            </div>
            <button
              type="button"
              className="btn btn--primary actionbar__add"
              onClick={add}
              disabled={product.soldOut}
              aria-disabled={product.soldOut || missing.length > 0}
              data-testid="add-to-cart"
            >
              {product.soldOut ? t('product.soldOut') : t('product.addToCart')}
            </button>
          </footer>
          {missing.length > 0 && !product.soldOut && (
            <p className="builder__missing" role="status">
              {missingText(t, missing[0] as Missing)}
            </p>
          )}
        </>,
        document.body,
      )}
    </>
  );
}

function Group({
  title,
  hint,
  limit,
  count,
  children,
}: {
  title: string;
  hint?: string;
  limit: number;
  count: number;
  children: (limit: number) => ReactNode;
}) {
  const t = useT();
  const [all, setAll] = useState(false);
  const max = Math.max(1, limit || DEFAULT_SHOW);
  return (
    <section className="group">
      <h3 className="group__title">
        {title}
        {hint && <small>{hint}</small>}
      </h3>
      {children(all ? count : max)}
      {count > max && (
        <button type="button" className="group__more" onClick={() => setAll((v) => !v)} aria-expanded={all}>
          {all ? t('common.less') : `${t('common.more')} (${count - max})`}
        </button>
      )}
    </section>
  );
}

function Option({ on, onClick, label, sub, testId }: { on: boolean; onClick: () => void; label: string; sub?: string; testId?: string }) {
  return (
    <button type="button" className={`opt${on ? ' opt--on' : ''}`} aria-pressed={on} onClick={onClick} data-testid={testId}>
      <span className="opt__label">{label}</span>
      {sub && <span className="opt__sub">{sub}</span>}
    </button>
  );
}

function FlavourGroup({ product, sel, onChange }: { product: ProductDetail; sel: Selection; onChange: (codes: (string | null)[]) => void }) {
  const t = useT();
  const slots = sel.flavorCodes;
  const firstEmpty = slots.findIndex((c) => c === null);
  const [active, setActive] = useState(firstEmpty === -1 ? 0 : firstEmpty);
  const halves = product.productType === PRODUCT_TYPE.TWO_FLAVOUR && slots.length === 2;
  const byCode = (code: string | null) => product.flavorList.find((f) => f.flavorCode === code);
  const pick = (f: FlavorOption) => {
    const next = [...slots];
    next[active] = f.flavorCode;
    onChange(next);
    const empty = next.findIndex((c, i) => c === null && i !== active);
    if (empty !== -1) setActive(empty);
  };
  const clear = (i: number) => {
    const next = [...slots];
    next[i] = null;
    onChange(next);
    setActive(i);
  };
  return (
    <section className="group" data-testid="flavours">
      <h3 className="group__title">
        {t('product.flavors')}
        <small>{halves ? t('product.halfHint') : t('product.flavorsHint', { n: slots.length })}</small>
      </h3>
      {halves ? (
        <FlavourHalves
          left={byCode(slots[0] ?? null)}
          right={byCode(slots[1] ?? null)}
          active={active}
          onActivate={setActive}
        />
      ) : (
        <div className="slots">
          {slots.map((code, i) => {
            const f = byCode(code);
            return (
              <button
                key={i}
                type="button"
                className={`slot${i === active ? ' slot--on' : ''}${f ? ' slot--filled' : ''}`}
                onClick={() => (f && i === active ? clear(i) : setActive(i))}
              >
                <span className="slot__n">{i + 1}</span>
                {f ? f.flavorName : '?'}
              </button>
            );
          })}
        </div>
      )}
      <div className="flavours">
        {product.flavorList.map((f) => {
          const count = slots.filter((c) => c === f.flavorCode).length;
          return (
            <button
              key={f.flavorCode}
              type="button"
              className={`flavour${count > 0 ? ' flavour--on' : ''}`}
              onClick={() => pick(f)}
              data-testid={`flavour-${f.flavorCode}`}
            >
              <span className="flavour__img">
                {f.imageURL ? <img src={f.imageURL} alt="" loading="lazy" /> : null}
                {count > 0 && <span className="flavour__count">{count > 1 ? `×${count}` : <CheckIcon />}</span>}
              </span>
              <span className="flavour__name">{f.flavorName}</span>
              <span className="flavour__price">{formatFen(flavourPriceFen(product, f, sel.sizeCode))}</span>
            </button>
          );
        })}
      </div>
    </section>
  );
}

function ComboRoundGroup({
  round,
  chosen,
  onChange,
}: {
  round: ProductDetail['comboRounds'][number];
  chosen: string[];
  onChange: (keys: string[]) => void;
}) {
  const t = useT();
  const single = round.chooseNum === 1;
  return (
    <section className="group" data-testid={`round-${round.roundCode}`}>
      <h3 className="group__title">
        {round.roundName}
        <small>
          {t('product.comboChoose', { n: round.chooseNum })} · {chosen.length}/{round.chooseNum}
        </small>
      </h3>
      <ul className="combo">
        {round.choices.map((c) => {
          const key = choiceKey(c);
          const count = chosen.filter((k) => k === key).length;
          return (
            <li key={key} className={`combo__item${count > 0 ? ' combo__item--on' : ''}`}>
              <button
                type="button"
                className="combo__main"
                onClick={() => {
                  if (single) onChange([key]);
                  else if (count === 0 && chosen.length < round.chooseNum) onChange([...chosen, key]);
                }}
                aria-pressed={count > 0}
              >
                <span className="combo__img">{c.imageURL1 ? <img src={c.imageURL1} alt="" loading="lazy" /> : null}</span>
                <span className="combo__name">
                  {c.productName}
                  {c.addPrice > 0 && <small>+{formatFen(toFen(c.addPrice))}</small>}
                </span>
                {single && <span className={`radio${count > 0 ? ' radio--on' : ''}`} aria-hidden="true" />}
              </button>
              {!single && (
                <Stepper
                  size="sm"
                  compactAtMin
                  value={count}
                  max={count + (round.chooseNum - chosen.length)}
                  onChange={(v) => {
                    const others = chosen.filter((k) => k !== key);
                    onChange([...others, ...Array.from({ length: v }, () => key)]);
                  }}
                  label={c.productName}
                />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
