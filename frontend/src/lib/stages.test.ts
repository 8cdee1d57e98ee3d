import { describe, expect, it } from 'vitest';
import { translate } from '@/lib/i18n';
import { stageLabelKey } from './stages';

/**
 * The server's words for the same codes (actors order_machine `step_label`, its test
 * `step_labels_by_order_type`): the app's one list must say the same, so an API reader, the
 * customer and the kitchen call a stage by one name.
 */
const SERVER: [number, number, string, string][] = [
  [0, 0, '待接单', 'Awaiting acceptance'],
  [1, 1, '已接单', 'Accepted'],
  [2, 0, '已拒单', 'Refused'],
  [3, 2, '已取消', 'Cancelled'],
  [4, 0, '制作中', 'Making'],
  [10, 2, '制作中', 'Making'],
  [20, 1, '烘烤中', 'In the oven'],
  [30, 0, '质检中', 'Quality check'],
  [40, 0, '配送中', 'Out for delivery'],
  [40, 1, '待取餐', 'Ready for pickup'],
  [40, 2, '待上餐', 'Ready to serve'],
  [50, 0, '已送达', 'Delivered'],
  [50, 1, '已完成', 'Completed'],
  [50, 2, '已完成', 'Completed'],
  [99, 0, '未知', 'Unknown'],
  [77, 1, '未知', 'Unknown'],
];

describe('stage names', () => {
  it.each(SERVER)('progress %i, order type %i: %s / %s', (progress, type, zh, en) => {
    expect(translate('zh', stageLabelKey(progress, type))).toBe(zh);
    expect(translate('en', stageLabelKey(progress, type))).toBe(en);
  });
});
