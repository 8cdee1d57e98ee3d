import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useI18n } from '@/lib/i18n';
import { makeKitchenLine, makeTabletOrder } from '../testOrder';
import { OrderCard } from './OrderCard';

// 2026-11-24 11:00 in Shanghai.
const NOW = 1_795_489_200_000;
const noop = () => undefined;

function card(over: Parameters<typeof makeTabletOrder>[0]) {
  const order = makeTabletOrder(over);
  render(<OrderCard order={order} nowMs={NOW} flashing={false} undoMark={undefined} busy={false} onOpen={noop} onAccept={noop} onRefuse={noop} onAdvance={noop} onUndo={noop} />);
  return order;
}

describe('OrderCard', () => {
  afterEach(() => act(() => useI18n.setState({ lang: 'zh' })));

  it('a booking for tomorrow says the day in its promise and its flag', () => {
    const o = card({ isBookOrder: true, orderTime: NOW + 24 * 3600_000, promisedBy: NOW + 24 * 3600_000 });
    expect(screen.getByTestId(`tablet-due-${o.orderNo}`)).toHaveTextContent('承诺 明天 11:00');
    expect(screen.getByTestId('tablet-flag-book')).toHaveTextContent('预约 11-25 11:00');
  });

  it('shows the flags and what to make, the desk in the header rather than as a flag', () => {
    card({
      orderType: 2,
      deskNo: 'A12',
      paymentType: 'online',
      contactless: false,
      tableware: 2,
      lines: [makeKitchenLine({ quantity: 3, flavours: ['香辣鸡肉', '玛格丽特'] })],
    });
    expect(screen.getByText('桌号 A12')).toBeInTheDocument();
    expect(screen.queryByTestId('tablet-flag-desk')).toBeNull();
    expect(screen.getByTestId('tablet-flag-tableware')).toHaveTextContent('餐具 2 份');
    expect(screen.queryByTestId('tablet-flag-cash')).toBeNull();
    expect(screen.getByTestId('tablet-line-qty')).toHaveTextContent('3×');
    expect(screen.getAllByTestId('tablet-line-flavour').map((e) => e.textContent)).toEqual(['左半：香辣鸡肉', '右半：玛格丽特']);
  });

  it('a priority order wears its badge in the header, in zh and en, and no chip twice', () => {
    const o = card({ priority: true });
    expect(screen.getByTestId(`tablet-order-${o.orderNo}`)).toHaveAttribute('data-priority', 'true');
    expect(screen.getByTestId(`tablet-priority-${o.orderNo}`)).toHaveTextContent('优先');
    expect(screen.queryByTestId('tablet-flag-priority')).toBeNull();
    act(() => useI18n.setState({ lang: 'en' }));
    expect(screen.getByTestId(`tablet-priority-${o.orderNo}`)).toHaveTextContent('Priority');
  });

  it('an ordinary order has no badge', () => {
    const o = card({});
    expect(screen.queryByTestId(`tablet-priority-${o.orderNo}`)).toBeNull();
    expect(screen.getByTestId(`tablet-order-${o.orderNo}`)).toHaveAttribute('data-priority', 'false');
  });
});
