import { useI18n, useT } from '@/lib/i18n';
import { GlobeIcon } from './Icons';
import './LanguageSwitch.css';

/** zh ⇄ en; the choice is kept in localStorage. */
export function LanguageSwitch({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const t = useT();
  const lang = useI18n((s) => s.lang);
  const setLang = useI18n((s) => s.setLang);
  return (
    <button
      type="button"
      className={`langsw langsw--${tone}`}
      onClick={() => setLang(lang === 'zh' ? 'en' : 'zh')}
      data-testid="lang-switch"
      lang={lang === 'zh' ? 'en' : 'zh'}
      aria-label={t('lang.switchTo')}
    >
      <GlobeIcon />
      <span>{t('lang.switchTo')}</span>
    </button>
  );
}
