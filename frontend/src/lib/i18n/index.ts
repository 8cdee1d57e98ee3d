/**
 * A small i18n: zh (default) and en, one dictionary per language, `{name}` placeholders.
 * A key missing in the current language falls back to zh, then to the key itself.
 * The language is kept in localStorage (spec account §1) and sent as Accept-Language.
 *
 * zh ships with the app; en is a chunk of its own, fetched before the first render when it is the
 * saved language and otherwise on the switch to it (a Chinese visitor never downloads it): the
 * language changes once its words are here, so no screen shows half of each.
 */
import { useCallback } from 'react';
import { create } from 'zustand';
import { storage } from '../storage';
import { zh, type MessageKey } from './zh';

export type Lang = 'zh' | 'en';
export type { MessageKey };
export type Dictionary = Partial<Record<MessageKey, string>>;
export type TParams = Record<string, string | number>;
export type TFunction = (key: MessageKey, params?: TParams) => string;

export const LANGS: readonly Lang[] = ['zh', 'en'];
export const DEFAULT_LANG: Lang = 'zh';
const LANG_KEY = 'lang';

const dictionaries: Record<Lang, Dictionary> = { zh, en: {} };
const loaded = new Set<Lang>(['zh']);
let enLoading: Promise<void> | null = null;

/** Makes `lang`'s words available; resolves once they are (or, the chunk failing, with zh as the fallback). */
export function loadDictionary(lang: Lang): Promise<void> {
  if (loaded.has(lang)) return Promise.resolve();
  enLoading ??= import('./en').then(
    (m) => {
      dictionaries.en = m.en;
      loaded.add('en');
    },
    (error: unknown) => {
      // Tried again at the next switch; meanwhile every key falls back to zh.
      enLoading = null;
      console.error('the English dictionary did not load', error);
    },
  );
  return enLoading;
}

export function isLang(value: unknown): value is Lang {
  return value === 'zh' || value === 'en';
}

export function interpolate(text: string, params?: TParams): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** Looks `key` up in `lang`, then zh, then answers the key. `dicts` is injectable for tests. */
export function translate(
  lang: Lang,
  key: string,
  params?: TParams,
  dicts: Record<Lang, Record<string, string | undefined>> = dictionaries,
): string {
  const text = dicts[lang][key] ?? dicts[DEFAULT_LANG][key] ?? key;
  return interpolate(text, params);
}

function initialLang(): Lang {
  const saved = storage.get<string>(LANG_KEY);
  return isLang(saved) ? saved : DEFAULT_LANG;
}

let requested: Lang | null = null;

interface I18nState {
  lang: Lang;
  setLang: (lang: Lang) => void;
}

export const useI18n = create<I18nState>((set) => ({
  lang: initialLang(),
  setLang: (lang) => {
    storage.set(LANG_KEY, lang);
    requested = lang;
    if (loaded.has(lang)) set({ lang });
    // A switch back while the words were on their way wins.
    else void loadDictionary(lang).then(() => requested === lang && set({ lang }));
  },
}));

/** Re-reads the saved language (tests, and a storage change in another tab). */
export function reloadLang(): void {
  useI18n.setState({ lang: initialLang() });
}

export function getLang(): Lang {
  return useI18n.getState().lang;
}

/** Translate outside React (current language). */
export const t: TFunction = (key, params) => translate(getLang(), key, params);

/** The `t` of the current language; re-renders on a language switch. */
export function useT(): TFunction {
  const lang = useI18n((s) => s.lang);
  return useCallback<TFunction>((key, params) => translate(lang, key, params), [lang]);
}

export function useLang(): Lang {
  return useI18n((s) => s.lang);
}

/** Picks the field for the current language when both are present (e.g. name / nameEN). */
export function pickLang(lang: Lang, zhText: string | null | undefined, enText: string | null | undefined): string {
  if (lang === 'en') return enText || zhText || '';
  return zhText || enText || '';
}
