import { Empty } from '@/components/Empty';
import { Loading } from '@/components/Loading';
import { useQuery } from '@/hooks/useQuery';
import { useLang, useT } from '@/lib/i18n';
import { formatDateTime } from '@/utils/time';
import { getGifts, getLevelHistory } from '../api/members';
import type { LevelChange, MemberDetail, MemberGift } from '@/lib/api/types';
import { GiftCard } from './GiftCard';
import { MemberShell } from './MemberShell';

/** Available gifts first, then claimed, then expired; newest first within each. */
export function sortGifts(gifts: MemberGift[]): MemberGift[] {
  const rank: Record<string, number> = { available: 0, claimed: 1, expired: 2 };
  return [...gifts].sort((a, b) => (rank[a.status] ?? 3) - (rank[b.status] ?? 3) || b.expiresAt - a.expiresAt);
}

function useGifts(kind: MemberGift['kind']) {
  const lang = useLang();
  const q = useQuery(`member-gifts:${lang}`, (signal) => getGifts(signal));
  return { ...q, gifts: q.data ? sortGifts(q.data.filter((g) => g.kind === kind)) : undefined };
}

/** /my/member/memberSelectGift: the welcome gift, one option chosen and claimed once. */
export function SelectGiftPage({ who }: { who: string | number }) {
  const t = useT();
  return (
    <MemberShell title={t('member.gift.title')} who={who}>
      {(_m, reloadMember) => <GiftList kind="welcome" empty={t('member.gift.none')} onClaimed={reloadMember} />}
    </MemberShell>
  );
}

/** /my/member/promotionCeremony: the upgrade gifts (one per level reached) and the level history. */
export function PromotionCeremonyPage({ who }: { who: string | number }) {
  const t = useT();
  return (
    <MemberShell title={t('member.upgrade.title')} who={who}>
      {(m, reloadMember) => (
        <>
          <Ceremony member={m} />
          <GiftList kind="upgrade" empty={t('member.upgrade.none')} onClaimed={reloadMember} />
          <LevelHistory />
        </>
      )}
    </MemberShell>
  );
}

function Ceremony({ member }: { member: MemberDetail }) {
  const t = useT();
  return (
    <section className="mceremony" data-testid="ceremony">
      <span className="mceremony__lv">Lv{member.loyaltyLevel ?? 1}</span>
      <strong>{t('member.upgrade.congrats', { name: member.levelName ?? '' })}</strong>
    </section>
  );
}

function GiftList({ kind, empty, onClaimed }: { kind: MemberGift['kind']; empty: string; onClaimed: () => void }) {
  const t = useT();
  const q = useGifts(kind);
  if (!q.gifts) return <Loading error={q.error?.message} reloadText={t('common.retry')} onReload={q.reload} />;
  return (
    <div className="mpage__body" data-testid={`gifts-${kind}`}>
      {q.gifts.length === 0 ? (
        <Empty text={empty} />
      ) : (
        q.gifts.map((g) => (
          <GiftCard
            key={g.giftId}
            gift={g}
            onClaimed={() => {
              q.reload();
              onClaimed();
            }}
          />
        ))
      )}
    </div>
  );
}

export function historyText(h: LevelChange, t: ReturnType<typeof useT>): string {
  if (h.reason === 'join') return t('member.history.join', { to: h.toLevel });
  return t(h.reason === 'upgrade' ? 'member.history.upgrade' : 'member.history.downgrade', { from: h.fromLevel ?? '-', to: h.toLevel });
}

function LevelHistory() {
  const t = useT();
  const q = useQuery('member-level-history', (signal) => getLevelHistory(signal));
  if (!q.data || q.data.length === 0) return null;
  const rows = [...q.data].sort((a, b) => b.at - a.at);
  return (
    <section className="mpage__card mpage__card--inset" data-testid="level-history">
      <h2 className="mpage__cardTitle">{t('member.history.title')}</h2>
      <ol className="mhist">
        {rows.map((h, i) => (
          <li key={`${h.at}-${i}`} className="mhist__row">
            <span>{historyText(h, t)}</span>
            <time dateTime={new Date(h.at).toISOString()}>{formatDateTime(h.at)}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}
