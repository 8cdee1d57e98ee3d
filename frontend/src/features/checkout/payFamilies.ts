import type { PayMethod } from '@/lib/api/types';

export type PayFamily = 'wechat' | 'alipay' | 'bank';

/**
 * The kinds of payment the channel's methods are, in the order the words name them: what the
 * "online payment" choice says it takes (in the bank channel only bank cards, in WeChat only
 * WeChat Pay; never a wallet the channel does not offer).
 */
export function payFamilies(methods: readonly PayMethod[]): PayFamily[] {
  const of = (m: PayMethod): PayFamily => (m.startsWith('wechat') ? 'wechat' : m.startsWith('alipay') ? 'alipay' : 'bank');
  const present = new Set(methods.filter((m) => m !== 'offline').map(of));
  return (['wechat', 'alipay', 'bank'] as const).filter((f) => present.has(f));
}
