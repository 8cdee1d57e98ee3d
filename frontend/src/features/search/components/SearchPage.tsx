import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Empty } from '@/components/Empty';
import { CloseIcon, SearchIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { ProductTile } from '@/components/ProductTile';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT } from '@/lib/i18n';
import { toFen } from '@/lib/money';
import { getHotWords, searchProducts } from '../api/search';
import './SearchPage.css';

export interface SearchPageProps {
  storeCode: string;
  onOpenProduct: (productCode: string) => void;
}

/** Product search with the store's hot words; the keyword lives in the URL (?q=). */
export function SearchPage({ storeCode, onOpenProduct }: SearchPageProps) {
  const t = useT();
  const lang = useLang();
  const [params, setParams] = useSearchParams();
  const keyword = (params.get('q') ?? '').trim();
  const [text, setText] = useState(keyword);
  const hot = useQuery(`hot:${storeCode}:${lang}`, (signal) => getHotWords(storeCode, signal));
  const results = useQuery(keyword ? `psearch:${storeCode}:${keyword}:${lang}` : null, (signal) => searchProducts(storeCode, keyword, signal));

  const run = (word: string) => {
    const w = word.trim();
    setText(w);
    const p = new URLSearchParams(params);
    if (w) p.set('q', w);
    else p.delete('q');
    setParams(p, { replace: !!keyword });
  };

  return (
    <div className="psearch">
      <form
        className="psearch__bar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          run(text);
        }}
      >
        <div className="searchbox">
          <SearchIcon className="searchbox__icon" />
          <input
            className="searchbox__input"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('search.placeholder')}
            aria-label={t('search.placeholder')}
            enterKeyHint="search"
            autoFocus={!keyword}
            data-testid="search-input"
          />
          {text && (
            <button type="button" className="searchbox__clear" onClick={() => run('')} aria-label={t('search.clear')}>
              <CloseIcon />
            </button>
          )}
        </div>
        <button type="submit" className="btn btn--primary btn--sm">
          {t('search.submit')}
        </button>
      </form>

      {!keyword && (
        <section className="psearch__hot">
          <h3 className="section-title">{t('search.hot')}</h3>
          {hot.data && hot.data.length > 0 ? (
            <div className="psearch__chips">
              {hot.data.map((w) => (
                <button key={w} type="button" className="chip" onClick={() => run(w)}>
                  {w}
                </button>
              ))}
            </div>
          ) : hot.loading ? null : (
            <p className="muted">{t('common.empty')}</p>
          )}
        </section>
      )}

      {keyword &&
        (results.loading ? (
          <Loading />
        ) : results.error ? (
          <Loading error={results.error.message} reloadText={t('common.retry')} onReload={results.reload} />
        ) : !results.data || results.data.length === 0 ? (
          <Empty text={t('search.noResult')} />
        ) : (
          <div className="psearch__results">
            <p className="psearch__count">{t('search.results', { n: results.data.length })}</p>
            {results.data.map((p) => (
              <ProductTile
                key={p.productCode}
                testId={`product-${p.productCode}`}
                name={p.productName}
                description={p.description}
                image={p.imageURL1}
                priceFen={toFen(p.sellingPrice)}
                fromPrice={p.productType === 1 || p.productType === 9}
                soldOut={p.soldOut}
                onOpen={() => onOpenProduct(p.productCode)}
              />
            ))}
          </div>
        ))}
    </div>
  );
}
