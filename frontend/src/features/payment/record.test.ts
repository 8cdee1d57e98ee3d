import { afterEach, describe, expect, it } from 'vitest';
import { setClockOffset } from '@/lib/clock';
import { storage } from '@/lib/storage';
import type { PaymentCreated } from '@/lib/api/types';
import { PAY_RECORD_KEY, PAY_RECORD_TTL_MS, isRecordLive, readPayRecord } from './record';
import { clearPayRecord, recordOfCreated, recordOfServer, savePayRecord } from './recordWriters';

const NOW = Date.parse('2026-11-24T03:00:00Z');

const created: PaymentCreated = {
  paymentId: 'pay_1',
  orderNo: 'P1',
  orderId: 12,
  orderType: 0,
  method: 'alipay_wap',
  payAmount: 85.2,
  orderAmount: 85.2,
  alreadyPayAmount: 0,
  html: null,
  url: '/sandbox/cashier/pay_1',
  payInfo: null,
  signInfo: null,
  tn: null,
  unionPayParas: null,
  expiresAt: NOW + PAY_RECORD_TTL_MS,
};

afterEach(() => setClockOffset(0));

describe('the pay-in-progress record', () => {
  it("holds the spec's fields", () => {
    expect(recordOfCreated(created, NOW)).toEqual({
      money: 85.2,
      orderNo: 'P1',
      orderId: 12,
      payInfo: null,
      orderType: 0,
      orderAmount: 85.2,
      alreadyPayAmount: 0,
      paymentId: 'pay_1',
      method: 'alipay_wap',
      savedAt: NOW,
      expiresAt: NOW + PAY_RECORD_TTL_MS,
    });
    expect(recordOfCreated({ ...created, payInfo: null, tn: 'TN1' }, NOW).payInfo).toBe('TN1');
  });

  it('lives 30 minutes, and not past the provider deadline', () => {
    const r = recordOfCreated({ ...created, expiresAt: null }, NOW);
    expect(isRecordLive(r, NOW)).toBe(true);
    expect(isRecordLive(r, NOW + PAY_RECORD_TTL_MS - 1)).toBe(true);
    expect(isRecordLive(r, NOW + PAY_RECORD_TTL_MS)).toBe(false);
    const early = recordOfCreated({ ...created, expiresAt: NOW + 60_000 }, NOW);
    expect(isRecordLive(early, NOW + 59_999)).toBe(true);
    expect(isRecordLive(early, NOW + 60_000)).toBe(false);
    expect(isRecordLive(null, NOW)).toBe(false);
  });

  it('is kept in storage and forgotten once expired', () => {
    setClockOffset(NOW - Date.now());
    savePayRecord(recordOfCreated(created, NOW), NOW);
    expect(readPayRecord(NOW + 1000)?.orderNo).toBe('P1');
    expect(readPayRecord(NOW + PAY_RECORD_TTL_MS)).toBeNull();
    expect(storage.get(PAY_RECORD_KEY)).toBeNull();
  });

  it('is cleared for its own order only', () => {
    savePayRecord(recordOfCreated(created, NOW), NOW);
    clearPayRecord('P2');
    expect(readPayRecord(NOW)?.orderNo).toBe('P1');
    clearPayRecord('P1');
    expect(readPayRecord(NOW)).toBeNull();
  });

  it("the server's copy keeps its deadline", () => {
    const r = recordOfServer(
      { money: 10, orderNo: 'P1', orderId: 1, payInfo: null, orderType: 1, orderAmount: 10, alreadyPayAmount: 0, paymentId: 'x', method: 'alipay_wap', expiresAt: NOW + 10 * 60_000 },
      NOW,
    );
    expect(r.savedAt).toBe(NOW - 20 * 60_000);
    expect(isRecordLive(r, NOW + 10 * 60_000 - 1)).toBe(true);
    expect(isRecordLive(r, NOW + 10 * 60_000)).toBe(false);
  });
});
