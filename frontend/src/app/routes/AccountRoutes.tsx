import { useNavigate, useSearchParams } from 'react-router';
import { CancellationPage, MyPage, useAccount } from '@/features/account';
import { AddressForm, AddressList, useSelectedAddress } from '@/features/address';
import { getInputTips } from '@/features/location';
import { MemberSummary } from '@/features/member';
import { useSignedOut } from '../session';

// The account pages the route table shows as they are: one chunk with the routes below.
export {
  LoginPage,
  PersonalInfoPage,
  PolicyPage,
  RegisterPage,
  ResetPasswordPage,
  UpdatePasswordPage,
  UpdateUserInfoPage,
  VisitorState,
} from '@/features/account';

/** /my with the app's logout clean-up and the member strip (issue 23). */
export function MyRoute() {
  const who = useAccount((s) => s.user?.id ?? s.token ?? '');
  return <MyPage onSignedOut={useSignedOut()} memberSlot={<MemberSummary who={who} />} />;
}

export function CancellationRoute() {
  return <CancellationPage onSignedOut={useSignedOut()} />;
}

/** Back `steps` in history, or to `fallback` when the page was not opened from that far. */
function useBack(fallback: string, steps = 1): () => void {
  const navigate = useNavigate();
  return () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx >= steps) void navigate(-steps);
    else void navigate(fallback, { replace: true });
  };
}

/** An address added from the choosing list (`?pick=1`) is chosen at once (issue 22). */
const PICK = 'pick';

/** /address (manage) and /address/select, /selectAddress (choose one, then back). */
export function AddressListRoute({ mode }: { mode: 'manage' | 'select' }) {
  const navigate = useNavigate();
  const back = useBack('/');
  return (
    <AddressList
      mode={mode}
      onAdd={() => void navigate(mode === 'select' ? `/address/add?${PICK}=1` : '/address/add')}
      onEdit={(id) => void navigate(`/address/update?id=${id}`)}
      onChosen={back}
    />
  );
}

/** /address/add and /address/update?id=: the location feature's suggestions composed in. */
export function AddressFormRoute() {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const pick = id === null && params.get(PICK) === '1';
  const back = useBack('/address');
  // Added while choosing (from checkout): chosen, and back past the list to the page that asked.
  const backPastList = useBack('/order/submit', 2);
  const selected = useSelectedAddress((s) => s.address);
  const select = useSelectedAddress((s) => s.select);
  return (
    <AddressForm
      id={id}
      searchTips={getInputTips}
      onSaved={(saved) => {
        if (pick) {
          select(saved);
          backPastList();
          return;
        }
        // The selected address keeps its fresh fields.
        if (selected?.id === saved.id) select(saved);
        back();
      }}
    />
  );
}
