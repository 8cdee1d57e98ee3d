import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useServerNow } from '@/lib/clock';
import { usePrint } from '../store/print';
import { KitchenTicket } from './KitchenTicket';

const AFTERPRINT_FALLBACK_MS = 10_000;

/**
 * The print sheet: while a ticket is asked for, it is rendered outside the board (print CSS hides
 * everything else; the ticket is as wide as the roll's printable width) and the browser's print
 * runs once. The page size is the printer's paper: an inline @page rule would be refused by the
 * Content-Security-Policy (style-src 'self'), and a fixed page length would feed blank paper.
 */
export function TicketPrinter() {
  const ticket = usePrint((s) => s.ticket);
  const paper = usePrint((s) => s.settings.paper);
  const nowMs = useServerNow(60_000);
  useEffect(() => {
    if (!ticket) return undefined;
    let fallback: number | undefined;
    const done = () => usePrint.getState().printed();
    // Some browsers (iPad Safari) return from print() before the page is printed: the sheet
    // stays until the browser says it printed, or a while after at worst.
    window.addEventListener('afterprint', done, { once: true });
    // After the sheet is painted.
    const timer = window.setTimeout(() => {
      window.print();
      fallback = window.setTimeout(done, AFTERPRINT_FALLBACK_MS);
    }, 50);
    return () => {
      window.clearTimeout(timer);
      window.clearTimeout(fallback);
      window.removeEventListener('afterprint', done);
    };
  }, [ticket]);
  if (!ticket) return null;
  return createPortal(
    <div className="tab-print" data-testid="tablet-print-sheet">
      <KitchenTicket order={ticket} paper={paper} nowMs={nowMs} />
    </div>,
    document.body,
  );
}
