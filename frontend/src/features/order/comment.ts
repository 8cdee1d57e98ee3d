import type { MessageKey } from '@/lib/i18n';

/** docs/payments-and-orders.md: rating 1..5, text at most 200 characters. */
export const COMMENT_MAX = 200;
export const RATINGS = [1, 2, 3, 4, 5] as const;

/** Characters as the customer counts them (an emoji is one). */
export function textLength(text: string): number {
  return Array.from(text).length;
}

/** What is wrong with a comment, or null. */
export function commentProblem(rating: number, text: string): MessageKey | null {
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) return 'order.comment.needRating';
  if (textLength(text.trim()) > COMMENT_MAX) return 'order.comment.tooLong';
  return null;
}
