import { useState } from 'react';
import { showToast } from '@/components/Toast';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useQuery } from '@/hooks/useQuery';
import { isApiError } from '@/lib/api';
import { useT } from '@/lib/i18n';
import { fetchProducts, setSoldOut } from '../api/tablet';
import { useBoard } from '../store/board';
import type { TabletProduct } from '../types';
import { Modal } from './Modal';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The store's products with a sold-out toggle each. The toggle reads the live board (store:update
 * from any tablet keeps it current) and falls back to the list's own flag before the board loads.
 */
export function SoldOutPanel({ onClose }: { onClose: () => void }) {
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
    <Modal title={t('tablet.soldout.title')} onClose={onClose} variant="side" testId="tablet-soldout">
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
    </Modal>
  );
}
