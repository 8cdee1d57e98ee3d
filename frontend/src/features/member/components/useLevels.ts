import { useQuery } from '@/hooks/useQuery';
import { useLang } from '@/lib/i18n';
import { getLevels } from '../api/members';

/** GET /members/levels in the page language (names and privileges). */
export function useLevels() {
  const lang = useLang();
  return useQuery(`member-levels:${lang}`, (signal) => getLevels(signal));
}
