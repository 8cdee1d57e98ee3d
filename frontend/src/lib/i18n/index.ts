/**
 * A small i18n: zh (default) and en, one dictionary per language, `{name}` placeholders.
 * A key missing in the current language falls back to zh, then to the key itself.
 * The language is kept in localStorage (spec account §1) and sent as Accept-Language.
 *
 * Each language's words come in two parts (frontend/README.md "Chunks"): the first screen's
 * (zh.ts, en.ts: the home page, the layout, errors, page titles) and the other pages'
 * (zhPages.ts, enPages.ts). zh's first part ships with the app; every other part is a chunk of its
 * own. English's first part is fetched before the first render when it is the saved language, and
 * otherwise on the switch to it (a Chinese visitor never downloads it); the pages' words come with
 * the first page chunk (loadPageWords), zh's always (the fallback) and en's when English is on.
 * The language changes once its words are here, so no screen shows half of each.
 */
import { useCallback } from 'react';
import { create } from 'zustand';
import { storage } from '../storage';
import { zh, type FirstScreenKey } from './zh';
import type { PageKey } from './zhPages';

export type Lang = 'zh' | 'en';
export type MessageKey = FirstScreenKey | PageKey;
export type Dictionary = Partial<Record<MessageKey, string>>;
export type TParams = Record<string, string | number>;
export type TFunction = (key: MessageKey, params?: TParams) => string;

export const LANGS: readonly Lang[] = ['zh', 'en'];
export const DEFAULT_LANG: Lang = 'zh';
const LANG_KEY = 'lang';

type Part = 'first' | 'pages';
const PARTS: Record<Lang, Record<Part, (() => Promise<Dictionary>) | null>> = {
  zh: { first: null, pages: () => import('./zhPages').then((m) => m.zhPages) },
  en: { first: () => import('./en').then((m) => m.en), pages: () => import('./enPages').then((m) => m.enPages) },
};

const dictionaries: Record<Lang, Dictionary> = { zh: { ...zh }, en: {} };
const loaded = new Set<string>(['zh:first']);
const loading = new Map<string, Promise<void>>();
/** Whether a page chunk has asked for the pages' words: from then on a language is its two parts. */
let pagesWanted = false;

/** One part of one language, fetched once; a failure is forgotten, so the next call tries again. */
function loadPart(lang: Lang, part: Part): Promise<void> {
  const id = `${lang}:${part}`;
  const fetchPart = PARTS[lang][part];
  if (loaded.has(id) || !fetchPart) return Promise.resolve();
  let pending = loading.get(id);
  if (!pending) {
    pending = fetchPart().then(
      (words) => {
        Object.assign(dictionaries[lang], words);
        loaded.add(id);
        loading.delete(id);
      },
      (error: unknown) => {
        loading.delete(id);
        throw error;
      },
    );
    loading.set(id, pending);
  }
  return pending;
}

function partsWanted(): Part[] {
  return pagesWanted ? ['first', 'pages'] : ['first'];
}

function isReady(lang: Lang): boolean {
  return partsWanted().every((part) => loaded.has(`${lang}:${part}`) || !PARTS[lang][part]);
}

/**
 * Makes `lang`'s words available (the first screen's, and the pages' once a page asked for them);
 * resolves once they are or, a chunk failing, with zh as the fallback (tried again at the next call).
 */
export function loadDictionary(lang: Lang): Promise<void> {
  return Promise.all(partsWanted().map((part) => loadPart(lang, part))).then(
    () => undefined,
    (error: unknown) => console.error(`the ${lang} dictionary did not load`, error),
  );
}

/**
 * The words of the pages beyond the first screen, for a page chunk: zh's, which every language
 * falls back to, and the current language's. Rejects when zh's do not come, so that the page's
 * chunk load retries (src/app/chunkLoad.ts); English's failing leaves its keys to zh.
 */
export function loadPageWords(): Promise<void> {
  pagesWanted = true;
  const lang = getLang();
  return Promise.all([loadPart('zh', 'pages'), lang === 'zh' ? undefined : loadDictionary(lang)]).then(() => undefined);
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
  // Plurals: with {n} = 1, a key's ".one" form when the language has one ("1 item").
  const one = params?.n === 1 ? dicts[lang][`${key}.one`] : undefined;
  const text = one ?? dicts[lang][key] ?? dicts[DEFAULT_LANG][key] ?? key;
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
    if (isReady(lang)) set({ lang });
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
