import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { showToast } from '@/components/Toast';
import { now } from '@/lib/clock';
import { useT } from '@/lib/i18n';
import { storage } from '@/lib/storage';
import { getProtocol } from '../api/account';
import { privacyRefused, setPrivacyRefused } from '../store/consent';
import { PrivacyConsentDialog } from './PrivacyConsentDialog';

const VISITOR_KEY = 'privacy:visitor';

/** What a visitor agreed to, on this device: when, and the policy's update time then. */
interface VisitorAgreement {
  at: number;
  version: number;
}

/** Whether this device agreed to the policy in force (spec account §4: not older than its update time). */
export function visitorAgreed(policyUpdatedAt: number): boolean {
  const saved = storage.get<VisitorAgreement>(VISITOR_KEY);
  return !!saved && typeof saved.version === 'number' && saved.version >= policyUpdatedAt;
}

/** Pages beyond anonymous browsing: a visitor who refused is asked again there. */
const NEEDS_CONSENT = ['/login', '/register', '/order/submit'];

/**
 * The privacy consent asked of visitors too (spec account §4): once the policy is read (content
 * required before display; no dialog when it cannot be read), a visitor who has not agreed to the
 * version in force is asked. Agreeing is kept on the device with the policy's update time;
 * refusing is kept for the session and leaves anonymous browsing only: registration, login and
 * checkout ask again, and refusing there goes home. Lives in the app layout while nobody is
 * signed in (a chunk of its own, with the signed-in dialogs).
 */
export function VisitorConsent({ pathname }: { pathname: string }) {
  const t = useT();
  const navigate = useNavigate();
  const [policyAt, setPolicyAt] = useState<number | null>(null);
  const gated = NEEDS_CONSENT.includes(pathname);

  useEffect(() => {
    if (privacyRefused() && !gated) {
      setPolicyAt(null);
      return undefined;
    }
    const controller = new AbortController();
    getProtocol('privacyprotocol', controller.signal).then(
      (doc) => {
        if (!controller.signal.aborted) setPolicyAt(visitorAgreed(doc.updateTime) ? null : doc.updateTime);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [pathname, gated]);

  const agree = () => {
    if (policyAt !== null) storage.set(VISITOR_KEY, { at: now(), version: policyAt });
    setPrivacyRefused(false);
    setPolicyAt(null);
  };
  const refuse = () => {
    setPrivacyRefused(true);
    setPolicyAt(null);
    showToast(t('privacy.refused'));
    if (gated) void navigate('/', { replace: true });
  };
  return <PrivacyConsentDialog open={policyAt !== null} onAgree={agree} onRefuse={refuse} />;
}
