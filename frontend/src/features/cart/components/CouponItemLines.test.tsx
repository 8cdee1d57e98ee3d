import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearApiCache } from '@/lib/api';
import { makeCart } from '@/test/fixtures';
import { makeCouponItem } from '@/test/couponFixtures';
import { mockApi } from '@/test/mockApi';
import { resetCart, useCart } from '../store/cart';
import { CartLines } from './CartLines';

const WEDGES = makeCouponItem({ couponCode: 'C9', prodName: '黄金薯角', unitPrice: 9.9, originalPrice: 19 });
const COLA = makeCouponItem({ couponCode: 'C7', prodName: '可口可乐', unitPrice: 0, originalPrice: 8, disableReason: 'soldOut', disableMsg: '可口可乐已售罄' });

beforeEach(() => {
  clearApiCache();
  resetCart();
});
afterEach(() => vi.unstubAllGlobals());

describe('coupon items among the cart lines', () => {
  it('lists a coupon item with its tag and coupon price over the list price, and one the store cannot serve apart with why', () => {
    render(<CartLines cart={makeCart({ couponItems: [WEDGES], saleOutCouponItems: [COLA] })} readOnly />);
    const item = screen.getByTestId('cart-coupon-item-C9');
    expect(item).toHaveTextContent('券 黄金薯角');
    expect(item).toHaveTextContent('¥9.90');
    expect(item).toHaveTextContent('¥19.00');
    // Checkout lists it without a remove (the picker takes it out).
    expect(within(item).queryByTestId('cart-coupon-item-C9-remove')).toBeNull();
    const off = screen.getByTestId('cart-coupon-items-disabled');
    expect(within(off).getByTestId('cart-coupon-item-C7')).toHaveTextContent('可口可乐已售罄');
    expect(within(off).getByTestId('cart-coupon-item-C7-remove')).toBeInTheDocument();
  });

  it('takes a coupon item out of the cart from the cart sheet (DELETE /cart/coupon-items/{code}), showing the answer', async () => {
    const { calls } = mockApi({ 'DELETE /cart/coupon-items/:code': () => makeCart({ shoppingCarVersion: 9, couponItems: [] }) });
    const cart = makeCart({ couponItems: [WEDGES] });
    useCart.setState({ cart, status: 'ready' });
    const { rerender } = render(<CartLines cart={cart} />);
    await userEvent.click(screen.getByTestId('cart-coupon-item-C9-remove'));
    await waitFor(() => expect(useCart.getState().cart?.shoppingCarVersion).toBe(9));
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['DELETE /api/v1/cart/coupon-items/C9']);
    rerender(<CartLines cart={useCart.getState().cart ?? cart} />);
    expect(screen.queryByTestId('cart-coupon-item-C9')).toBeNull();
  });
});
