import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '../storage';
import { en } from './en';
import { getLang, interpolate, reloadLang, t, translate, useI18n } from './index';
import { zh } from './zh';

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
  it('en has every zh key and no key zh lacks', () => {
    const zhKeys = Object.keys(zh).sort();
    expect(Object.keys(en).sort()).toEqual(zhKeys);
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
