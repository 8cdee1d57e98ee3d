import { useState } from 'react';
import { showToast } from '@/components/Toast';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useQuery } from '@/hooks/useQuery';
import { isApiError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { fetchIngredients, fetchProducts, setIngredientSoldOut, setSoldOut } from '../api/tablet';
import { useBoard } from '../store/board';
import { ingredientKey, type TabletIngredient, type TabletProduct } from '../types';
import { Modal } from './Modal';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The store's products with a sold-out toggle each. The toggle reads the live board (store:update
 * from any tablet keeps it current) and falls back to the list's own flag before the board loads.
 */
export function SoldOutPanel({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [tab, setTab] = useState<'products' | 'ingredients'>('products');
  return (
    <Modal title={t('tablet.soldout.title')} onClose={onClose} variant="side" testId="tablet-soldout">
      <div className="tab-seg tab-seg--tabs" role="tablist">
        {(['products', 'ingredients'] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={tab === k}
            className={`tab-seg__btn${tab === k ? ' tab-seg__btn--on' : ''}`}
            onClick={() => setTab(k)}
            data-testid={`tablet-soldout-tab-${k}`}
          >
            {t(k === 'products' ? 'tablet.soldout.tabProducts' : 'tablet.soldout.tabIngredients')}
          </button>
        ))}
      </div>
      {tab === 'products' ? <ProductList /> : <IngredientList />}
    </Modal>
  );
}

const KIND_LABEL = {
  flavor: 'tablet.soldout.kind.flavor',
  base: 'tablet.soldout.kind.base',
  extra: 'tablet.soldout.kind.extra',
  sauce: 'tablet.soldout.kind.sauce',
} as const;

/**
 * Toppings, sauces and flavours (issue 22): one 86 takes it out of every product and half that
 * uses it. The toggle reads the live board, like the products'.
 */
function IngredientList() {
  const t = useT();
  const [keyword, setKeyword] = useState('');
  const all = useQuery('tablet-ingredients', (signal) => fetchIngredients(signal));
  const soldOut = useBoard((s) => s.store?.soldOut ?? null);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const isOut = (i: TabletIngredient) => (soldOut ? soldOut.includes(ingredientKey(i)) : i.soldOut);
  const toggle = async (i: TabletIngredient) => {
    if (pending.has(i.code)) return;
    setPending((s) => new Set(s).add(i.code));
    try {
      useBoard.getState().setStore(await setIngredientSoldOut(i.code, !isOut(i)));
    } catch (e) {
      if (!(isApiError(e) && e.isAuth)) showToast(e instanceof Error ? e.message : String(e));
    } finally {
      setPending((s) => {
        const next = new Set(s);
        next.delete(i.code);
        return next;
      });
    }
  };
  const needle = keyword.trim().toLowerCase();
  const list = (all.data ?? []).filter((i) => !needle || i.name.toLowerCase().includes(needle) || i.code.toLowerCase().includes(needle));
  return (
    <>
      <input
        className="tab-input"
        type="search"
        value={keyword}
        placeholder={t('tablet.soldout.searchIngredients')}
        onChange={(e) => setKeyword(e.target.value)}
        data-testid="tablet-soldout-ingredient-search"
        aria-label={t('tablet.soldout.searchIngredients')}
      />
      {all.error && <p className="tab-muted">{all.error.message}</p>}
      <ul className="tab-products">
        {list.map((i) => {
          const out = isOut(i);
          return (
            <li key={i.code} className={`tab-product${out ? ' tab-product--out' : ''}`}>
              <div className="tab-product__text">
                <div className="tab-product__name">{i.name}</div>
                <div className="tab-muted">
                  {t(KIND_LABEL[i.kind])} · {t('tablet.soldout.usedBy', { n: i.usedBy })}
                </div>
              </div>
              <button
                type="button"
                className={`tab-toggle${out ? ' tab-toggle--on' : ''}`}
                aria-pressed={out}
                disabled={pending.has(i.code)}
                onClick={() => void toggle(i)}
                data-testid={`tablet-soldout-ingredient-${i.code}`}
              >
                {out ? t('tablet.soldout.on') : t('tablet.soldout.off')}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function ProductList() {
  const t = useT();
  const [keyword, setKeyword] = useState('');
  const settled = useDebouncedValue(keyword.trim(), SEARCH_DEBOUNCE_MS);
  const products = useQuery(`tablet-products:${settled}`, (signal) => fetchProducts(settled, signal));
  const soldOut = useBoard((s) => s.store?.soldOut ?? null);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());

  const isOut = (p: TabletProduct) => (soldOut ? soldOut.includes(p.productCode) : p.soldOut);
  const toggle = async (p: TabletProduct) => {
    if (pending.has(p.productCode)) return;
    setPending((s) => new Set(s).add(p.productCode));
    try {
      useBoard.getState().setStore(await setSoldOut(p.productCode, !isOut(p)));
    } catch (e) {
      if (!(isApiError(e) && e.isAuth)) showToast(e instanceof Error ? e.message : String(e));
    } finally {
      setPending((s) => {
        const next = new Set(s);
        next.delete(p.productCode);
        return next;
      });
    }
  };

  const list = products.data ?? [];
  return (
    <>
      <input
        className="tab-input"
        type="search"
        value={keyword}
        placeholder={t('tablet.soldout.search')}
        onChange={(e) => setKeyword(e.target.value)}
        data-testid="tablet-soldout-search"
        aria-label={t('tablet.soldout.search')}
      />
      {products.error && <p className="tab-muted">{products.error.message}</p>}
      {!products.loading && !products.error && list.length === 0 && <p className="tab-muted">{t('tablet.soldout.empty')}</p>}
      <ul className="tab-products">
        {list.map((p) => {
          const out = isOut(p);
          return (
            <li key={p.productCode} className={`tab-product${out ? ' tab-product--out' : ''}`}>
              {p.imageUrl ? <img src={p.imageUrl} alt="" loading="lazy" /> : <span className="tab-product__img" />}
              <div className="tab-product__text">
                <div className="tab-product__name">{p.name}</div>
                <div className="tab-muted">{p.categoryName}</div>
              </div>
              <button
                type="button"
                className={`tab-toggle${out ? ' tab-toggle--on' : ''}`}
                aria-pressed={out}
                disabled={pending.has(p.productCode)}
                onClick={() => void toggle(p)}
                data-testid={`tablet-soldout-${p.productCode}`}
              >
                {out ? t('tablet.soldout.on') : t('tablet.soldout.off')}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
