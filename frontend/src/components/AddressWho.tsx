import { useT, type MessageKey } from '@/lib/i18n';

/** The address book's tag words (features address: the form's choices). */
const TAGS = ['home', 'company', 'school'];
const SEXES = ['male', 'female'];

/** What the place is (家 / 公司 / 学校), as a badge; nothing without a tag. */
export function AddressTagBadge({ tag, testId }: { tag?: string | null; testId?: string }) {
  const t = useT();
  if (!tag || !TAGS.includes(tag)) return null;
  return (
    <span className="badge badge--tag" data-testid={testId}>
      {t(`address.tag.${tag}` as MessageKey)}
    </span>
  );
}

/** The recipient as the rider greets them: 张三 女士 / Ms Li Lei (the name alone when not said). */
export function useRecipient(): (a: { name: string; sex?: string | null }) => string {
  const t = useT();
  return (a) => (a.sex && SEXES.includes(a.sex) ? t('address.who', { name: a.name, title: t(`address.sex.${a.sex}` as MessageKey) }) : a.name);
}
