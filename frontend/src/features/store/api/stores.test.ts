import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearApiCache } from '@/lib/api';
import { makeStore } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import { coord, getNearbyStores, getStoresByPoint } from './stores';

beforeEach(() => clearApiCache());
afterEach(() => vi.unstubAllGlobals());

describe('store lookups', () => {
  it('send coordinates with 6 decimals so short latitudes are not rejected', () => {
    expect(coord(31.23)).toBe('31.230000');
    expect(coord(121.4762134)).toBe('121.476213');
    expect(coord(undefined)).toBeUndefined();
  });

  it('nearby: errCode "02" with a list answers the list', async () => {
    mockApi({ 'GET /stores/nearby': () => ({ status: 200, body: { errCode: '02', errMsg: '附近暂无门店', data: [makeStore()] } }) });
    await expect(getNearbyStores({ lat: 31.2, lng: 121.4 })).resolves.toHaveLength(1);
  });

  it('nearby: errCode "02" without a list is an error with the message', async () => {
    mockApi({ 'GET /stores/nearby': () => ({ status: 404, body: { errCode: '02', errMsg: '附近暂无门店', data: null } }) });
    await expect(getNearbyStores({ lat: 31.2, lng: 121.4 })).rejects.toThrow('附近暂无门店');
  });

  it('by-point: retried up to 3 times while errCode is not "00", then the last error', async () => {
    const { calls } = mockApi({
      'GET /stores/by-point': () => ({ status: 400, body: { errCode: '02', errMsg: '通过经纬度获取门店：无效经纬度', data: null } }),
    });
    await expect(getStoresByPoint({ lat: 31.2, lng: 121.4 })).rejects.toThrow('通过经纬度获取门店：无效经纬度');
    expect(calls).toHaveLength(4);
    expect(calls[0]?.url.searchParams.get('latitude')).toBe('31.200000');
    expect(calls[0]?.url.searchParams.get('isBookOrder')).toBe('0');

    clearApiCache();
    let n = 0;
    const again = mockApi({
      'GET /stores/by-point': () =>
        ++n === 1
          ? { status: 503, body: { errCode: '503', errMsg: '', data: null } }
          : n === 2
            ? { status: 404, body: { errCode: '02', errMsg: '未查询到门店', data: null } }
            : [makeStore()],
    });
    await expect(getStoresByPoint({ lat: 31.2, lng: 121.4 })).resolves.toHaveLength(1);
    expect(again.calls).toHaveLength(3);
  });

  it('by-point: an aborted lookup is not retried', async () => {
    const controller = new AbortController();
    const { calls } = mockApi({
      'GET /stores/by-point': () => {
        controller.abort();
        return { status: 503, body: { errCode: '503', errMsg: '', data: null } };
      },
    });
    await expect(getStoresByPoint({ lat: 31.2, lng: 121.4 }, false, controller.signal)).rejects.toThrow();
    expect(calls).toHaveLength(1);
  });
});
