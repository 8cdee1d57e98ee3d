import { describe, expect, it } from 'vitest';
import type { OrderProgressEvent } from '@/lib/socket';
import { makeOrder } from '@/test/fixtures';
import type { OrderDetail, OrderStep } from '@/lib/api/types';
import { translate } from '@/lib/i18n';
import { stepLabelKey } from './labels';
import {
  EMPTY_TRACKER,
  STEP_CODES,
  applyProgress,
  emptySteps,
  judgeSeq,
  onProgress,
  onSnapshot,
  stepIndex,
  stepsAt,
  stepsOf,
  type Labels,
  type TrackerState,
} from './tracking';

const zh: Labels = {
  step: (p, type) => translate('zh', stepLabelKey(p, type)),
  progress: (p) => translate('zh', stepLabelKey(p, 0)),
};
const T0 = Date.parse('2026-11-24T03:00:00Z');
const min = (n: number) => T0 + n * 60_000;

function ev(seq: number, progress: number, state = 1, at = min(seq)): OrderProgressEvent {
  return { orderNo: 'P1', progress, state, at, eta: min(40), seq };
}

/** A paid delivery order awaiting acceptance, as GET /orders answers it. */
function paid(over: Partial<OrderDetail> = {}): OrderDetail {
  return makeOrder({
    orderNo: 'P1',
    state: 6,
    progress: 0,
    paymentType: 'online',
    seq: 2,
    eta: min(30),
    canCancel: true,
    steps: STEP_CODES.map((progress) => ({ progress, label: zh.step(progress, 0), at: null, done: false, current: false })),
    ...over,
  });
}

const summary = (steps: OrderStep[]) => steps.map((s) => `${s.progress}${s.current ? '*' : s.done ? '+' : '-'}`).join(' ');

describe('judgeSeq', () => {
  it('applies the next one, ignores old news, calls anything beyond a gap', () => {
    expect(judgeSeq(3, 4)).toBe('apply');
    expect(judgeSeq(3, 3)).toBe('stale');
    expect(judgeSeq(3, 1)).toBe('stale');
    expect(judgeSeq(3, 5)).toBe('gap');
    expect(judgeSeq(3, 40)).toBe('gap');
  });
  it('applies anything to a snapshot that carries no seq', () => {
    expect(judgeSeq(undefined, 9)).toBe('apply');
    expect(judgeSeq(null, 1)).toBe('apply');
  });
});

describe('steps', () => {
  it('are accept, make, oven, quality check, dispatch, delivered — with the takeaway and dine-in words', () => {
    expect(emptySteps(0, zh.step).map((s) => s.label)).toEqual(['已接单', '制作中', '烘烤中', '质检中', '配送中', '已送达']);
    expect(emptySteps(1, zh.step).map((s) => s.label)).toEqual(['已接单', '制作中', '烘烤中', '质检中', '待取餐', '已完成']);
    expect(emptySteps(2, zh.step).map((s) => s.label)).toEqual(['已接单', '制作中', '烘烤中', '质检中', '待上餐', '已完成']);
    const en: Labels['step'] = (p, type) => translate('en', stepLabelKey(p, type));
    expect(emptySteps(1, en).map((s) => s.label).slice(4)).toEqual(['Ready for pickup', 'Completed']);
    expect(emptySteps(0, en).map((s) => s.label).slice(4)).toEqual(['Out for delivery', 'Delivered']);
  });

  it('reads 4 as the making stage and codes off the line as none', () => {
    expect(stepIndex(4)).toBe(1);
    expect(stepIndex(10)).toBe(1);
    expect(stepIndex(50)).toBe(5);
    for (const p of [0, 2, 3, 99, 7]) expect(stepIndex(p)).toBe(-1);
  });

  it('marks the steps up to the current one done, with the time each was reached', () => {
    let steps = emptySteps(0, zh.step);
    steps = stepsAt(steps, 1, min(1));
    steps = stepsAt(steps, 10, min(2));
    steps = stepsAt(steps, 20, min(9));
    expect(summary(steps)).toBe('1+ 10+ 20* 30- 40- 50-');
    expect(steps.map((s) => s.at)).toEqual([min(1), min(2), min(9), null, null, null]);
  });

  it('goes back one stage when the store undoes one, keeping the first time of the stage it returns to', () => {
    let steps = stepsAt(stepsAt(stepsAt(emptySteps(0, zh.step), 1, min(1)), 10, min(2)), 20, min(9));
    steps = stepsAt(steps, 10, min(10));
    expect(summary(steps)).toBe('1+ 10* 20- 30- 40- 50-');
    expect(steps[1]?.at).toBe(min(2));
    expect(steps[2]?.at).toBeNull();
  });

  it('keeps the reached steps with no current one when the order leaves the line (cancelled)', () => {
    const steps = stepsAt(stepsAt(emptySteps(0, zh.step), 1, min(1)), 3, min(2));
    expect(summary(steps)).toBe('1+ 10- 20- 30- 40- 50-');
  });

  it('are built from the history when the server sends none', () => {
    const steps = stepsOf(
      {
        orderType: 1,
        progress: 20,
        steps: [],
        history: [
          { seq: 3, state: 1, progress: 10, actor: 'store', note: null, at: min(5) },
          { seq: 1, state: 6, progress: 0, actor: 'system', note: null, at: min(0) },
          { seq: 2, state: 1, progress: 1, actor: 'store', note: null, at: min(2) },
          { seq: 4, state: 1, progress: 20, actor: 'store', note: null, at: min(8) },
        ],
      },
      zh.step,
    );
    expect(summary(steps)).toBe('1+ 10+ 20* 30- 40- 50-');
    expect(steps.map((s) => s.at)).toEqual([min(2), min(5), min(8), null, null, null]);
    expect(steps[4]?.label).toBe('待取餐');
  });

  it("take the server's times but the app's own words (a snapshot in another language shows none of its words)", () => {
    const steps = stepsOf(
      { orderType: 0, progress: 1, steps: [{ progress: 1, label: 'Accepted', at: min(3), done: true, current: true }], history: [] },
      zh.step,
    );
    expect(steps).toHaveLength(6);
    expect(steps[0]).toEqual({ progress: 1, label: '已接单', at: min(3), done: true, current: true });
    expect(steps[1]?.label).toBe('制作中');
  });
});

describe('applyProgress', () => {
  it('moves state, progress, label, ETA and seq, and closes the cancel window once accepted', () => {
    const next = applyProgress(paid({ stateLabel: '已支付' }), { ...ev(3, 1), eta: min(35) }, zh.step, zh.progress);
    expect(next).toMatchObject({ state: 1, progress: 1, progressLabel: '已接单', seq: 3, eta: min(35), canCancel: false, stateLabel: '' });
    expect(summary(next.steps ?? [])).toBe('1* 10- 20- 30- 40- 50-');
    expect(next.steps?.[0]?.at).toBe(min(3));
    expect(next.history?.at(-1)).toMatchObject({ seq: 3, state: 1, progress: 1 });
  });

  it('accepts the numbers as text', () => {
    const next = applyProgress(paid(), { orderNo: 'P1', progress: '10', state: '1', at: String(min(4)), eta: null, seq: 3 }, zh.step, zh.progress);
    expect(next).toMatchObject({ progress: 10, state: 1, eta: null, progressLabel: '制作中' });
  });
});

describe('the tracker', () => {
  const start = (order = paid()): TrackerState => onSnapshot(EMPTY_TRACKER, order, zh).state;

  it('applies events in seq order and ignores a repeated one', () => {
    let s = start();
    for (const e of [ev(3, 1), ev(4, 10), ev(4, 10), ev(5, 20)]) {
      const r = onProgress(s, e, zh);
      expect(r.resync).toBe(false);
      s = r.state;
    }
    expect(s.order?.seq).toBe(5);
    expect(summary(s.order?.steps ?? [])).toBe('1+ 10+ 20* 30- 40- 50-');
  });

  it('asks for a snapshot at a gap and never shows the later step first', () => {
    let s = start();
    const r = onProgress(s, ev(4, 10), zh);
    expect(r.resync).toBe(true);
    s = r.state;
    expect(s.order?.progress).toBe(0);
    expect(s.pending.map((p) => p.seq)).toEqual([4]);
    // The missing one arrives before the snapshot: both apply, in order.
    const filled = onProgress(s, ev(3, 1), zh);
    expect(filled.resync).toBe(false);
    expect(filled.state.order).toMatchObject({ seq: 4, progress: 10 });
    expect(filled.state.pending).toEqual([]);
  });

  it('after a gap, the snapshot wins and the held events on top of it apply', () => {
    let s = onProgress(start(), ev(6, 30), zh).state;
    s = onProgress(s, ev(7, 40), zh).state;
    // The snapshot says seq 5 (oven): 6 and 7 follow it.
    const snap = paid({ state: 1, progress: 20, seq: 5, steps: undefined, history: [{ seq: 3, state: 1, progress: 1, actor: 'store', note: null, at: min(3) }, { seq: 4, state: 1, progress: 10, actor: 'store', note: null, at: min(4) }, { seq: 5, state: 1, progress: 20, actor: 'store', note: null, at: min(5) }] });
    const r = onSnapshot(s, snap, zh);
    expect(r.resync).toBe(false);
    expect(r.state.order).toMatchObject({ seq: 7, progress: 40, progressLabel: '配送中' });
    expect(summary(r.state.order?.steps ?? [])).toBe('1+ 10+ 20+ 30+ 40* 50-');
    expect(r.state.order?.steps?.map((x) => x.at)).toEqual([min(3), min(4), min(5), min(6), min(7), null]);
  });

  it('a snapshot that already holds the events drops them; one that still lacks one asks again', () => {
    const s = onProgress(onProgress(start(), ev(4, 10), zh).state, ev(6, 30), zh).state;
    const newer = onSnapshot(s, paid({ state: 1, progress: 30, seq: 6, steps: undefined, history: [] }), zh);
    expect(newer.resync).toBe(false);
    expect(newer.state.pending).toEqual([]);
    const older = onSnapshot(s, paid({ state: 1, progress: 1, seq: 3, steps: undefined, history: [] }), zh);
    // 4 applies on top of 3; 6 still misses 5.
    expect(older.state.order?.seq).toBe(4);
    expect(older.resync).toBe(true);
  });

  it('keeps events that come before the first snapshot', () => {
    let s = onProgress(EMPTY_TRACKER, ev(3, 1), zh);
    expect(s.resync).toBe(false);
    s = onSnapshot(s.state, paid(), zh);
    expect(s.state.order).toMatchObject({ seq: 3, progress: 1 });
  });

  it('ignores a snapshot older than what is shown', () => {
    const s = onProgress(start(), ev(3, 1), zh).state;
    const r = onSnapshot(s, paid({ seq: 2 }), zh);
    expect(r.state).toBe(s);
  });

  it('an event without a number asks for a snapshot', () => {
    const r = onProgress(start(), { ...ev(3, 1), seq: Number.NaN }, zh);
    expect(r.resync).toBe(true);
  });
});
