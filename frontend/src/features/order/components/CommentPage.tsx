import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT } from '@/lib/i18n';
import type { OrderDetail } from '@/lib/api/types';
import { commentOrder, getOrder } from '../api/order';
import { COMMENT_MAX, commentProblem, textLength } from '../comment';
import { Stars } from './Stars';
import './Order.css';

const TOAST_MS = 3000;

/** /order/comment?orderNo=: a completed order's rating (1–5) and text (at most 200 characters), once. */
export function CommentPage({ orderNo }: { orderNo: string }) {
  const t = useT();
  const lang = useLang();
  const q = useQuery(orderNo ? `order-comment:${orderNo}:${lang}` : null, (signal) => getOrder(orderNo, signal));
  return (
    <div className="ost">
      <Header title={t('order.comment.title')} fallback="/order" />
      {!orderNo ? (
        <Loading page error={t('order.notFound')} />
      ) : !q.data ? (
        <Loading page error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} />
      ) : (
        <CommentForm order={q.data} />
      )}
    </div>
  );
}

function CommentForm({ order }: { order: OrderDetail }) {
  const t = useT();
  const navigate = useNavigate();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const info = `/order/info?orderNo=${encodeURIComponent(order.orderNo)}`;

  if (order.comment) {
    return (
      <div className="ost__body">
        <section className="ost-card ocomment" data-testid="comment-done">
          <h2 className="ost-card__title">{t('order.comment.mine')}</h2>
          <Stars value={order.comment.rating} />
          {order.comment.text && <p className="ocomment__text">{order.comment.text}</p>}
        </section>
      </div>
    );
  }
  if (order.state !== 8) {
    return <Empty text={t('order.comment.notYet')} />;
  }

  const submit = async () => {
    const problem = commentProblem(rating, text);
    if (problem) {
      showToast(t(problem), TOAST_MS);
      return;
    }
    if (busy) return;
    setBusy(true);
    try {
      await commentOrder(order.orderNo, { rating, text: text.trim() });
      showToast(t('order.comment.thanks'), TOAST_MS);
      void navigate(info, { replace: true });
    } catch (e) {
      showToast(e instanceof Error ? e.message : String(e), TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="ost__body">
      <section className="ost-card ocomment">
        <p className="ocomment__store">{order.storeName}</p>
        <p className="ocomment__ask">{t('order.comment.ask')}</p>
        <Stars value={rating} onChange={setRating} />
        <label className="ocomment__field">
          <textarea
            value={text}
            rows={4}
            maxLength={COMMENT_MAX * 2}
            placeholder={t('order.comment.placeholder')}
            onChange={(e) => setText(Array.from(e.target.value).slice(0, COMMENT_MAX).join(''))}
            aria-label={t('order.comment.text')}
            data-testid="comment-text"
          />
          <small className="ocomment__count">
            {textLength(text)}/{COMMENT_MAX}
          </small>
        </label>
      </section>
      <button type="button" className="btn btn--primary btn--block" onClick={() => void submit()} disabled={busy} aria-disabled={rating === 0} data-testid="comment-submit">
        {t('order.comment.submit')}
      </button>
    </div>
  );
}
