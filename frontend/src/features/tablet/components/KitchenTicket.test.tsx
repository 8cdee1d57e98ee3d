import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useI18n } from '@/lib/i18n';
import { makeKitchenLine, makeTabletOrder } from '../testOrder';
import { KitchenTicket } from './KitchenTicket';
import { OrderLines } from './OrderLines';

const NOW = 1_795_489_200_000;
const LATIN_WORD = /[A-Za-z]{3,}/;

const order = makeTabletOrder({
  orderNo: '261124110000001234',
  paymentType: 'offline',
  cashToCollect: 85.2,
  contactless: true,
  remark: '门口放下',
  lines: [
    makeKitchenLine({ name: '经典双拼比萨', size: '14英寸', crust: '芝心', flavours: ['香辣鸡肉', '玛格丽特'] }),
    makeKitchenLine({ name: '四拼比萨', quantity: 2, size: '12英寸', crust: null, flavours: ['意式香肠', '夏威夷风光', '玛格丽特', '田园蔬菜'] }),
    makeKitchenLine({ name: '超值双人餐', size: null, crust: null, combo: [{ name: '意式香肠比萨', quantity: 1, size: '12英寸', crust: '经典手拍' }] }),
  ],
});

describe('KitchenTicket', () => {
  afterEach(() => act(() => useI18n.setState({ lang: 'zh' })));

  it('prints in zh whatever the tablet language, at the chosen width', () => {
    act(() => useI18n.setState({ lang: 'en' }));
    render(<KitchenTicket order={order} paper="58" nowMs={NOW} />);
    const ticket = screen.getByTestId('tablet-ticket');
    expect(ticket).toHaveAttribute('data-paper', '58');
    expect(ticket).toHaveClass('tab-ticket--58');
    for (const text of ['人民广场旗舰店', '#1234', '外送', '左半：香辣鸡肉', '右半：玛格丽特', '左上：意式香肠', '左下：田园蔬菜', '意式香肠比萨（12英寸 · 经典手拍）', '货到付款 收¥85.20', '无接触配送', '备注：门口放下', '共 4 件']) {
      expect(ticket).toHaveTextContent(text);
    }
    expect(ticket.textContent ?? '').not.toMatch(LATIN_WORD);
  });
});

describe('OrderLines', () => {
  afterEach(() => act(() => useI18n.setState({ lang: 'zh' })));

  it('shows the quantity first, halves, quarters and combo items', () => {
    render(<OrderLines order={order} />);
    const lines = screen.getAllByTestId('tablet-line');
    expect(lines).toHaveLength(3);
    expect(lines[1]?.querySelector('[data-testid="tablet-line-qty"]')).toHaveTextContent('2×');
    expect(lines[1]?.querySelector('.tab-line__qty--many')).not.toBeNull();
    expect(lines[0]).toHaveTextContent('左半：香辣鸡肉');
    expect(lines[1]).toHaveTextContent('右下：玛格丽特');
    expect(lines[2]).toHaveTextContent('意式香肠比萨（12英寸 · 经典手拍）');
    expect(screen.getByTestId('tablet-remark')).toHaveTextContent('备注：门口放下');
  });
  it('in the en UI the words around the zh names are English', () => {
    act(() => useI18n.setState({ lang: 'en' }));
    render(<OrderLines order={order} />);
    expect(screen.getAllByTestId('tablet-line')[0]).toHaveTextContent('Left half: 香辣鸡肉');
  });
});
