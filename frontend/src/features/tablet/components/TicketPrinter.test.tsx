import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readPrintSettings, usePrint } from '../store/print';
import { makeTabletOrder } from '../testOrder';
import { TicketPrinter } from './TicketPrinter';

describe('TicketPrinter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    act(() => usePrint.setState({ ticket: null }));
  });

  it('prints the asked ticket once at the chosen width and takes the sheet away after printing', () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    act(() => usePrint.setState({ settings: { paper: '58', autoPrint: false } }));
    render(<TicketPrinter />);
    expect(screen.queryByTestId('tablet-print-sheet')).toBeNull();
    act(() => usePrint.getState().print(makeTabletOrder()));
    expect(screen.getByTestId('tablet-ticket')).toHaveAttribute('data-paper', '58');
    act(() => vi.advanceTimersByTime(60));
    expect(print).toHaveBeenCalledTimes(1);
    // Still there until the browser says it printed.
    expect(screen.getByTestId('tablet-print-sheet')).toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event('afterprint')));
    expect(screen.queryByTestId('tablet-print-sheet')).toBeNull();
    expect(print).toHaveBeenCalledTimes(1);
    vi.unstubAllGlobals();
  });

  it('keeps the paper width and the automatic print in localStorage; by default 80 mm, no automatic print', () => {
    localStorage.removeItem('pz:tablet.print');
    expect(readPrintSettings()).toEqual({ paper: '80', autoPrint: false });
    act(() => usePrint.getState().update({ paper: '58', autoPrint: true }));
    expect(JSON.parse(localStorage.getItem('pz:tablet.print') ?? 'null').v).toEqual({ paper: '58', autoPrint: true });
    act(() => usePrint.getState().update({ paper: '80' }));
    expect(usePrint.getState().settings).toEqual({ paper: '80', autoPrint: true });
  });
});
