import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearApiCache } from '@/lib/api';
import { makeAddress } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import type { Poi } from '@/lib/api/types';
import { validateAddress } from '../validation';
import { AddressForm } from './AddressForm';

const poi: Poi = {
  id: 'p1',
  name: '人民广场',
  address: '上海市黄浦区西藏中路236号',
  point: { lng: 121.476213, lat: 31.231655 },
  cityCode: '310100',
  city: '上海',
  district: '黄浦区',
  kind: 'poi',
};

beforeEach(() => clearApiCache());
afterEach(() => vi.unstubAllGlobals());

function renderForm(searchTips = vi.fn(async () => [poi]), onSaved = vi.fn()) {
  render(
    <MemoryRouter>
      <AddressForm searchTips={searchTips} onSaved={onSaved} />
    </MemoryRouter>,
  );
  return { searchTips, onSaved };
}

describe('address form', () => {
  it('smart paste fills the fields; the picked suggestion gives the point that is saved', async () => {
    let posted: Record<string, unknown> | null = null;
    mockApi({
      'POST /addresses/smart-read': () => ({ name: '张三', phone: '13812345678', address: '上海市黄浦区西藏中路236号', houseNumber: '5楼501' }),
      'POST /addresses': (_u, init) => {
        posted = JSON.parse(String(init?.body)) as Record<string, unknown>;
        return makeAddress();
      },
    });
    const { searchTips, onSaved } = renderForm();
    await userEvent.type(screen.getByTestId('smart-text'), '张三 13812345678 上海市黄浦区西藏中路236号 5楼501');
    await userEvent.click(screen.getByTestId('smart-read'));
    await waitFor(() => expect(screen.getByTestId('addr-name')).toHaveValue('张三'));
    expect(screen.getByTestId('addr-phone')).toHaveValue('13812345678');
    expect(screen.getByTestId('addr-house')).toHaveValue('5楼501');
    expect(screen.getByTestId('addr-base')).toHaveValue('上海市黄浦区西藏中路236号');

    // Text alone has no point: saving asks to pick the address.
    await userEvent.click(screen.getByTestId('addr-save'));
    expect(screen.getByTestId('addr-base-error')).toHaveTextContent('请从搜索结果中选择地址');

    await userEvent.click(await screen.findByTestId('addr-tip-0'));
    expect(searchTips).toHaveBeenCalledWith('上海市黄浦区西藏中路236号', undefined, expect.anything());
    // The recipient's title and the place's tag: one of each, a second tap clears.
    await userEvent.click(screen.getByTestId('addr-sex-female'));
    expect(screen.getByTestId('addr-sex-female')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('addr-sex-female')).toHaveTextContent('女士');
    await userEvent.click(screen.getByTestId('addr-tag-home'));
    await userEvent.click(screen.getByTestId('addr-tag-company'));
    expect(screen.getByTestId('addr-tag-home')).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByTestId('addr-tag-company')).toHaveTextContent('公司');
    await userEvent.click(screen.getByTestId('addr-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(posted).toMatchObject({ name: '张三', phone: '13812345678', houseNumber: '5楼501', lat: '31.231655', lng: '121.476213', cityName: '上海', sex: 'female', tag: 'company' });
  });

  it('shows every server field error under its field (lat under the address)', async () => {
    mockApi({
      'POST /addresses': () => ({
        status: 400,
        body: {
          errCode: '400',
          errMsg: '联系人不能包含特殊字符',
          data: [
            { field: 'name', message: '联系人不能包含特殊字符' },
            { field: 'houseNumber', message: '门牌号不能超过100个字符' },
            { field: 'lat', message: '地址不合法，请重新选择地址' },
          ],
        },
      }),
    });
    renderForm();
    await userEvent.type(screen.getByTestId('addr-name'), '李四');
    await userEvent.type(screen.getByTestId('addr-phone'), '13812345678');
    await userEvent.type(screen.getByTestId('addr-base'), '人民广场');
    await userEvent.click(await screen.findByTestId('addr-tip-0'));
    await userEvent.type(screen.getByTestId('addr-house'), '1号');
    await userEvent.click(screen.getByTestId('addr-save'));
    expect(await screen.findByTestId('addr-name-error')).toHaveTextContent('联系人不能包含特殊字符');
    expect(screen.getByTestId('addr-house-error')).toHaveTextContent('门牌号不能超过100个字符');
    expect(screen.getByTestId('addr-base-error')).toHaveTextContent('地址不合法，请重新选择地址');
  });
});

describe('address validation (spec §5)', () => {
  const ok = { name: '张三', phone: '13812345678', baseAddress: '人民广场', houseNumber: '5楼501', lat: '31.231655', lng: '121.476213' };
  it('accepts a full address', () => expect(validateAddress(ok)).toEqual({}));
  it.each([
    [{ name: '' }, 'name', 'valid.contactEmpty'],
    [{ name: '张三😀' }, 'name', 'valid.contactIllegal'],
    [{ name: '一二三四五六七八九十一二三四五六七' }, 'name', 'valid.contactMax'],
    [{ phone: '' }, 'phone', 'valid.phoneEmpty'],
    [{ phone: '12812345678' }, 'phone', 'valid.phoneFormat'],
    [{ baseAddress: '' }, 'baseAddress', 'valid.baseAddressEmpty'],
    [{ baseAddress: "人民'广场" }, 'baseAddress', 'valid.baseAddressIllegal'],
    [{ lat: '31.23' }, 'baseAddress', 'valid.pickAddress'],
    [{ houseNumber: '' }, 'houseNumber', 'valid.houseEmpty'],
    [{ houseNumber: '5|01' }, 'houseNumber', 'valid.houseIllegal'],
    [{ houseNumber: 'x'.repeat(101) }, 'houseNumber', 'valid.houseMax'],
  ])('%o → %s %s', (over, field, key) => {
    expect(validateAddress({ ...ok, ...over })[field as keyof typeof ok]).toBe(key);
  });
});
