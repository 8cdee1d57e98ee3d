import { describe, expect, it } from 'vitest';
import { COMMENT_MAX, commentProblem, textLength } from './comment';

describe('comment', () => {
  it('needs a rating of 1 to 5', () => {
    expect(commentProblem(0, '')).toBe('order.comment.needRating');
    expect(commentProblem(6, 'ok')).toBe('order.comment.needRating');
    expect(commentProblem(2.5, 'ok')).toBe('order.comment.needRating');
    expect(commentProblem(5, '')).toBeNull();
  });
  it('takes at most 200 characters, an emoji counting one', () => {
    expect(textLength('🍕好吃')).toBe(3);
    expect(commentProblem(4, '🍕'.repeat(COMMENT_MAX))).toBeNull();
    expect(commentProblem(4, 'a'.repeat(COMMENT_MAX + 1))).toBe('order.comment.tooLong');
    expect(commentProblem(4, `  ${'a'.repeat(COMMENT_MAX)}  `)).toBeNull();
  });
});
