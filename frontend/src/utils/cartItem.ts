/** How a cart or order line's options read (cart sheet, checkout, order status). */
import type { TFunction } from '@/lib/i18n';
import type { CartPropertyGroup } from '@/lib/api/types';

export interface LineOptions {
  pizzaSizeName?: string | null;
  pizzaPastryName?: string | null;
  properties?: CartPropertyGroup[] | null;
}

/** The options of a line as short phrases: size, crust, flavours, sauce, extras, toppings taken off, combo picks. */
export function itemOptions(item: LineOptions, t: TFunction): string[] {
  const out: string[] = [];
  if (item.pizzaSizeName) out.push(item.pizzaSizeName);
  if (item.pizzaPastryName) out.push(item.pizzaPastryName);
  const groups = item.properties ?? [];
  const order = ['Pizza', 'Sauce', 'Extra', 'Base', 'Combo'];
  const sorted = [...groups].sort((a, b) => rank(order, a.group) - rank(order, b.group));
  for (const g of sorted) {
    for (const v of g.values ?? []) {
      const q = typeof v.quantity === 'number' && Number.isFinite(v.quantity) ? v.quantity : 1;
      if (g.group === 'Base') {
        // Base toppings are on the pizza unless taken off (quantity 0).
        if (q === 0) out.push(t('cart.removedTopping', { name: v.name }));
      } else if (g.group === 'Extra') {
        if (q > 0) out.push(q > 1 ? t('cart.extraN', { name: v.name, n: q }) : t('cart.extra', { name: v.name }));
      } else if (q > 0) {
        out.push(q > 1 ? `${v.name}×${q}` : v.name);
      }
    }
  }
  return out;
}

function rank(order: string[], group: string): number {
  const i = order.indexOf(group);
  return i === -1 ? order.length : i;
}

