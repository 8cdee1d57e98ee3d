import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useI18n } from '@/lib/i18n';
import { DRINK_BILL_LINE, makeBreakdown, PIZZA_20_OFF, PIZZA_BILL_LINE } from '@/test/fixtures';
import { PriceBreakdown } from './PriceBreakdown';

const HAN = /[\u4e00-\u9fff]/;

describe('PriceBreakdown', () => {
  afterEach(() => act(() => useI18n.setState({ lang: 'zh' })));

  it('shows each line as list price × quantity, discounts as their own rows, the fee and the payable', () => {
    render(<PriceBreakdown breakdown={makeBreakdown({ lines: [{ ...PIZZA_BILL_LINE, quantity: 2, amount: 198 }, DRINK_BILL_LINE], payable: 192.2, productAmount: 206 })} delivery />);
    const pizza = screen.getByTestId('breakdown-line-l_1');
    expect(pizza).toHaveTextContent('超级至尊比萨');
    expect(pizza).toHaveTextContent('12英寸 经典手拍');
    expect(pizza).toHaveTextContent('¥99.00 × 2');
    expect(pizza).toHaveTextContent('¥198.00');
    expect(screen.getByTestId('breakdown-discount-R002')).toHaveTextContent('优惠比萨8折-¥19.80');
    expect(screen.getByTestId('breakdown-fee')).toHaveTextContent('配送费¥6.00');
    expect(screen.queryByTestId('breakdown-waived')).toBeNull();
    const payable = screen.getByTestId('breakdown-payable');
    expect(payable).toHaveTextContent('应付金额');
    expect(within(payable).getByLabelText('¥192.20')).toBeInTheDocument();
  });

  it('in English has no Chinese, the waived fee its own row, and the order-level tag', () => {
    act(() => useI18n.setState({ lang: 'en' }));
    const b = makeBreakdown({
      discounts: [
        PIZZA_20_OFF,
        { ruleId: 'R005', nameCn: '外送满150减20', nameEn: 'Delivery: ¥20 off over ¥150', ruleType: 'fullReduction', level: 'order', amount: 20, lineIds: [], couponCode: null },
      ],
      discountAmount: 39.8,
      deliveryFeeWaived: 6,
      payable: 67.2,
    });
    render(<PriceBreakdown breakdown={b} delivery lines={false} payableTestId="checkout-total" />);
    const all = screen.getByTestId('price-breakdown');
    expect(all.textContent).not.toMatch(HAN);
    expect(screen.getByTestId('breakdown-products')).toHaveTextContent('Items¥107.00');
    expect(screen.getByTestId('breakdown-discount-R005')).toHaveTextContent('Whole orderDelivery: ¥20 off over ¥150-¥20.00');
    expect(screen.getByTestId('breakdown-waived')).toHaveTextContent('Free delivery-¥6.00');
    expect(screen.getByTestId('checkout-total')).toHaveAttribute('data-amount', '¥67.20');
  });
});
