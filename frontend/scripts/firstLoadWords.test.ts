import { describe, expect, it } from 'vitest';
import { keysUsed } from './firstLoadWords';

const KEYS = new Set(['menu.title', 'tablet.stage.10', 'tablet.stage.20', 'cart.added']);

describe('keysUsed', () => {
  it.each([
    ['a key in double quotes', `t("menu.title")`, ['menu.title']],
    ['in single quotes', `t('cart.added', { n })`, ['cart.added']],
    ['in a template literal', 't(`menu.title`)', ['menu.title']],
    ['a prefix completed by a template expression', 't(`tablet.stage.${s}`)', ['tablet.stage.']],
    ['a prefix completed by concatenation', `t("tablet.stage." + s)`, ['tablet.stage.']],
    ['a key of the first screen', `t("home.title")`, []],
    ['a longer string that only starts like a key', `"menu.title.extra"`, []],
    ['a word outside a string', 'menu.title', []],
    ['a prefix no key has', '`order.state.${s}`', []],
    ['several', `[t("menu.title"), t('cart.added')]`, ['menu.title', 'cart.added']],
  ])('%s', (_name, code, used) => {
    expect(keysUsed(code, KEYS)).toEqual(used);
  });
});
