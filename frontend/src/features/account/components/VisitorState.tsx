import { useLocation, useNavigate } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { useT, type MessageKey } from '@/lib/i18n';
import { rememberRedirect } from '../store/redirect';

/** Which page the visitor is on: its title, and what logging in gives there. */
export type VisitorKind = 'my' | 'orders' | 'order' | 'orderStatus' | 'addresses' | 'selectAddress' | 'member' | 'coupons';

const WORDS: Record<VisitorKind, [MessageKey, MessageKey]> = {
  my: ['my.title', 'visitor.my'],
  orders: ['order.list.title', 'visitor.orders'],
  order: ['order.info.title', 'visitor.order'],
  orderStatus: ['order.status.title', 'visitor.orderStatus'],
  addresses: ['address.title', 'visitor.addresses'],
  selectAddress: ['address.selectTitle', 'visitor.addresses'],
  member: ['member.center.title', 'visitor.member'],
  coupons: ['nav.coupons', 'visitor.coupons'],
};

/**
 * What a visitor sees on a page that shows its own visitor state (spec ordering §6: only
 * /order/submit requires login): what logging in gives here and a button to log in, which comes
 * back to this page. The route table (app/routes) shows it in place of the page while no one is
 * logged in; it sits in the account chunk, not in the home page's first load.
 */
export function VisitorState({ kind }: { kind: VisitorKind }) {
  const t = useT();
  const [title, text] = WORDS[kind];
  const location = useLocation();
  const navigate = useNavigate();
  const logIn = () => {
    rememberRedirect(`${location.pathname}${location.search}`);
    void navigate('/login');
  };
  return (
    <div className="visitor-gate" data-testid="visitor-state">
      <Header title={t(title)} fallback="/" />
      <Empty
        text={t(text)}
        action={
          <button type="button" className="btn btn--primary" onClick={logIn} data-testid="visitor-login">
            {t('visitor.login')}
          </button>
        }
      />
    </div>
  );
}
