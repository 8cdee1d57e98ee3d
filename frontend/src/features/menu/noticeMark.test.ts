import { describe, expect, it } from 'vitest';
import { noticeMark, noticeViewer } from './noticeMark';

describe('menu notice marks, per user per session', () => {
  it.each([
    [null, 'SH001', 'notice:visitor:SH001'],
    [undefined, 'SH001', 'notice:visitor:SH001'],
    [7, 'SH001', 'notice:user:7:SH001'],
    [0, 'SH002', 'notice:user:0:SH002'],
    [8, 'SH001', 'notice:user:8:SH001'],
  ])('user %s, store %s → %s', (user, store, key) => {
    expect(noticeMark(noticeViewer(user), store)).toBe(key);
  });

  it('a visitor, two users and two stores never share a mark', () => {
    const keys = [null, 7, 8].flatMap((u) => ['SH001', 'SH002'].map((s) => noticeMark(noticeViewer(u), s)));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
