import { useLocation, useNavigate } from 'react-router';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { useT, type MessageKey } from '@/lib/i18n';
import { rememberRedirect } from '../store/redirect';

export interface VisitorStateProps {
  /** The page's title, shown over the visitor state. */
  title: MessageKey;
  /** What logging in gives here ("log in to see your orders"). */
  text: MessageKey;
}

/**
 * What a visitor sees on a page that shows its own visitor state (spec ordering §6: only
 * /order/submit requires login): what logging in gives here and a button to log in, which comes
 * back to this page. The route table (app/routes) shows it in place of the page while no one is
 * logged in; it sits in the account chunk, not in the home page's first load.
 */
export function VisitorState({ title, text }: VisitorStateProps) {
  const t = useT();
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
