import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS_SEARCH_DEBOUNCE_MS } from '@/hooks/useDebouncedValue';
import { AddressFields } from './AddressForm';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('address search debounce', () => {
  it('is the spec figure, 500 ms', () => {
    expect(ADDRESS_SEARCH_DEBOUNCE_MS).toBe(500);
  });

  it('asks for suggestions only once typing has paused 500 ms, with the last text', () => {
    const searchTips = vi.fn((_keyword: string) => Promise.resolve([]));
    render(<AddressFields initial={null} searchTips={searchTips} onSaved={() => undefined} />);
    const base = screen.getByTestId('addr-base');
    fireEvent.change(base, { target: { value: '人民' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(base, { target: { value: '人民广场' } });
    act(() => vi.advanceTimersByTime(499));
    expect(searchTips).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(searchTips).toHaveBeenCalledTimes(1);
    expect(searchTips.mock.calls[0]?.[0]).toBe('人民广场');
  });
});
