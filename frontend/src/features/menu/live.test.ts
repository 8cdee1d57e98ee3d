import { describe, expect, it } from 'vitest';
import { makeStore } from '@/test/fixtures';
import type { MenuCategory, ProductCard } from '@/lib/api/types';
import { ownClosedNotice, withLiveSoldOut, withLiveStatus } from './live';

const product = (productCode: string, soldOut = false) => ({ productCode, soldOut }) as ProductCard;
const menu: MenuCategory[] = [{ categoryCode: 'C1', categoryName: '饮品', categoryNameCN: '饮品', categoryNameEN: 'Drinks', sort: 1, products: [product('DR001'), product('DR002', true)] }];
const update = (status: string, notice: string | null, soldOut: string[]) => ({ storeCode: 'SH001', status, notice, soldOut });

describe('the menu under the store live state', () => {
  it.each([
    ['nothing live yet', null, [false, true]],
    ['one sold out since', update('open', null, ['DR001', 'DR002']), [true, true]],
    ['one back on sale', update('open', null, []), [false, false]],
  ])('%s', (_, live, expected) => {
    expect(withLiveSoldOut(menu, live).flatMap((c) => c.products.map((p) => p.soldOut))).toEqual(expected);
  });

  it.each([
    ['closed with a notice', update('closed', '装修中', []), 'closed', '装修中', null],
    ['busy with a notice', update('busy', '排队中', []), 'busy', null, '排队中'],
    ['open again', update('open', null, []), 'open', null, null],
    // Busy without the staff's words: the app's own, in its language; reopening clears it.
    ['busy, default words', update('busy', null, []), 'busy', null, 'Busy: about 15 min longer'],
  ])('%s', (_, live, status, stop, business) => {
    const store = withLiveStatus(makeStore({ status: 'closed', stopStoreNotice: '旧公告' }), live, 'Busy: about 15 min longer');
    expect([store.status, store.stopStoreNotice, store.businessNotice]).toEqual([status, stop, business]);
  });

  it('ignores a status it does not know', () => {
    const store = makeStore({ status: 'open' });
    expect(withLiveStatus(store, update('sleeping', null, []))).toBe(store);
  });

  it("keeps the staff's closing words, not the server's default ones the menu says itself", () => {
    expect(ownClosedNotice('设备检修，暂停营业')).toBe('设备检修，暂停营业');
    expect(ownClosedNotice('门店暂停营业，请重新选择门店')).toBeNull();
    expect(ownClosedNotice('This store is temporarily closed; please choose another store')).toBeNull();
    expect(ownClosedNotice(null)).toBeNull();
  });
});
