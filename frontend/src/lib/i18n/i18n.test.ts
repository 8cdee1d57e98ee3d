import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '../storage';
import { en } from './en';
import { enPages } from './enPages';
import { getLang, interpolate, reloadLang, t, translate, useI18n } from './index';
import { zh } from './zh';
import { zhPages } from './zhPages';

describe('translate', () => {
  const dicts = {
    zh: { hello: '你好，{name}', onlyZh: '只有中文' } as Record<string, string | undefined>,
    en: { hello: 'Hello, {name}' } as Record<string, string | undefined>,
  };

  it('uses the asked language', () => {
    expect(translate('en', 'hello', { name: 'Li' }, dicts)).toBe('Hello, Li');
    expect(translate('zh', 'hello', { name: '李' }, dicts)).toBe('你好，李');
  });
  it('falls back to zh when en lacks the key', () => {
    expect(translate('en', 'onlyZh', undefined, dicts)).toBe('只有中文');
  });
  it('falls back to the key itself when no language has it', () => {
    expect(translate('en', 'nowhere.key', undefined, dicts)).toBe('nowhere.key');
  });
  it('leaves unknown placeholders alone', () => {
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});

describe('dictionaries', () => {
  it('en has every zh key and no key zh lacks, in each part', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    expect(Object.keys(enPages).sort()).toEqual(Object.keys(zhPages).sort());
  });
  it('puts each key in one part only', () => {
    expect(Object.keys(zh).filter((key) => key in zhPages)).toEqual([]);
  });
  it('has the client error messages of the spec in both languages', () => {
    expect(translate('zh', 'err.network')).toBe('网络异常，请稍后再试！');
    expect(translate('zh', 'err.server')).toBe('服务器异常，请稍后再试!');
    expect(translate('zh', 'err.busy')).toBe('服务器正忙，请稍后再试~');
    expect(translate('zh', 'err.offline')).toBe('网络已断开，请检查网络!');
    expect(translate('en', 'err.offline')).toMatch(/offline/i);
  });
});

describe('language state', () => {
  it('defaults to zh and keeps the choice in localStorage', () => {
    reloadLang();
    expect(getLang()).toBe('zh');
    act(() => useI18n.getState().setLang('en'));
    expect(getLang()).toBe('en');
    expect(storage.get('lang')).toBe('en');
    expect(t('menu.title')).toBe('Menu');
    useI18n.setState({ lang: 'zh' });
    reloadLang();
    expect(getLang()).toBe('en');
    act(() => useI18n.getState().setLang('zh'));
  });
  it('ignores a saved value that is not a language', () => {
    storage.set('lang', 'fr');
    reloadLang();
    expect(getLang()).toBe('zh');
  });
});

describe('the pages\' words', () => {
  // A fresh module: the test set-up has loaded every part of the shared one.
  async function freshI18n() {
    vi.resetModules();
    return import('./index');
  }

  it('come with loadPageWords: before, a page key is shown as itself; the first screen is there', async () => {
    const i18n = await freshI18n();
    expect(i18n.t('home.startTitle')).toBe(zh['home.startTitle']);
    expect(i18n.t('tablet.alarm.other')).toBe('tablet.alarm.other');
    await i18n.loadPageWords();
    expect(i18n.t('tablet.alarm.other')).toBe(zhPages['tablet.alarm.other']);
  });

  it('in English: the first screen with loadDictionary, the pages with loadPageWords, and a switch after loads both', async () => {
    storage.set('lang', 'en');
    const i18n = await freshI18n();
    await i18n.loadDictionary('en');
    expect(i18n.t('home.startTitle')).toBe(en['home.startTitle']);
    expect(i18n.t('tablet.alarm.other')).toBe('tablet.alarm.other');
    await i18n.loadPageWords();
    expect(i18n.t('tablet.alarm.other')).toBe(enPages['tablet.alarm.other']);

    storage.set('lang', 'zh');
    const fresh = await freshI18n();
    await fresh.loadPageWords();
    expect(fresh.t('tablet.alarm.other')).toBe(zhPages['tablet.alarm.other']);
    act(() => fresh.useI18n.getState().setLang('en'));
    // The language changes once both of its parts are here, not before.
    expect(fresh.getLang()).toBe('zh');
    await vi.waitFor(() => expect(fresh.getLang()).toBe('en'));
    expect(fresh.t('tablet.alarm.other')).toBe(enPages['tablet.alarm.other']);
    expect(fresh.t('home.startTitle')).toBe(en['home.startTitle']);
  });
});
