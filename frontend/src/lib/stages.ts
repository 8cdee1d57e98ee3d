import type { MessageKey } from '@/lib/i18n';

/**
 * The one list of an order's stage names (progress codes of spec ordering §4, actors
 * order_machine): the customer's tracker, the order pages and the store tablet all name a stage
 * with these words, and the server's `steps[].label` / `progressLabel` say the same
 * (actors `step_label`). 0 awaiting acceptance, 1 accepted, 2 refused, 3 cancelled, 4 and 10
 * making, 20 oven, 30 quality check, 40 dispatch (out for delivery; ready for pickup; ready to
 * serve), 50 delivered or completed, anything else unknown.
 *
 * The app shows these words, never the server's, for a code: they follow the app's language at
 * once when the customer switches it, and a snapshot taken in another language (an old socket,
 * a cached answer) cannot put foreign words on the page.
 */
export function stageLabelKey(progress: number, orderType: number): MessageKey {
  switch (progress === 4 ? 10 : progress) {
    case 0:
      return 'stage.0';
    case 1:
      return 'stage.1';
    case 2:
      return 'stage.2';
    case 3:
      return 'stage.3';
    case 10:
      return 'stage.10';
    case 20:
      return 'stage.20';
    case 30:
      return 'stage.30';
    case 40:
      return orderType === 0 ? 'stage.40.0' : orderType === 2 ? 'stage.40.2' : 'stage.40.1';
    case 50:
      return orderType === 0 ? 'stage.50.0' : 'stage.50.1';
    default:
      return 'stage.99';
  }
}
