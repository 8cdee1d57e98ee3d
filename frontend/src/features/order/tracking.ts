/**
 * Live order tracking as pure functions: the tracker's steps (spec ordering §4: accept, make,
 * oven, quality check, dispatch, delivered), an `order:progress` event applied to the snapshot,
 * and the `seq` rule of the contract: an event with seq = last + 1 applies, an older one is
 * ignored, a gap (or a reconnect the server did not recover) asks for a fresh snapshot. The
 * steps are a fixed line, so a step can never show twice or out of order.
 */
import type { OrderProgressEvent } from '@/lib/socket';
import type { OrderDetail, OrderHistoryEntry, OrderStep } from '@/lib/api/types';

/** The tracker's progress codes, in order. 4 is the spec's other "in production" code (read as 10). */
export const STEP_CODES = [1, 10, 20, 30, 40, 50] as const;
export const PROGRESS = { AWAITING: 0, ACCEPTED: 1, REFUSED: 2, CANCELLED: 3, IN_PRODUCTION: 4, MAKING: 10, DISPATCH: 40, DONE: 50, UNKNOWN: 99 } as const;

/** 4 and 10 are one stage. */
export function stageOf(progress: number): number {
  return progress === PROGRESS.IN_PRODUCTION ? PROGRESS.MAKING : progress;
}

/** The step's index on the line, or -1 for a code off it (0 awaiting, 2 refused, 3 cancelled, 99). */
export function stepIndex(progress: number): number {
  return (STEP_CODES as readonly number[]).indexOf(stageOf(progress));
}

/** The label of a step in the order type's words (the app's own words, when the server gave none). */
export type StepLabeler = (progress: number, orderType: number) => string;

/** The six steps with nothing reached yet (the server's `steps` are used when present). */
export function emptySteps(orderType: number, label: StepLabeler): OrderStep[] {
  return STEP_CODES.map((progress) => ({ progress, label: label(progress, orderType), at: null, done: false, current: false }));
}

/**
 * The steps as they are when the order is at `progress` (reached at `at`): the steps before it
 * done, it the current one with its time, those after it not reached (a stage the store undid
 * goes back). A code off the line leaves the reached steps as they are, with no current one.
 */
export function stepsAt(steps: OrderStep[], progress: number, at: number | null): OrderStep[] {
  const idx = stepIndex(progress);
  if (idx < 0) return steps.map((s) => (s.current ? { ...s, current: false } : s));
  return steps.map((s) => {
    const stepIdx = stepIndex(s.progress);
    if (stepIdx < idx) return s.done && !s.current ? s : { ...s, done: true, current: false };
    // A step reached before (the store stepped back to it) keeps the time it was first reached.
    if (stepIdx === idx) return { ...s, done: true, current: true, at: s.done && s.at !== null ? s.at : (at ?? s.at) };
    return s.done || s.current || s.at !== null ? { ...s, done: false, current: false, at: null } : s;
  });
}

/**
 * The snapshot's steps, normalised to the fixed line, named by `label` (the app's one list of
 * stage names, lib/stages): the server's words are not shown, so a snapshot in another language
 * cannot put foreign words on the page.
 */
export function stepsOf(order: Pick<OrderDetail, 'steps' | 'orderType' | 'progress' | 'history'>, label: StepLabeler): OrderStep[] {
  const given = new Map((order.steps ?? []).map((s) => [stageOf(s.progress), s]));
  if (given.size > 0) {
    return STEP_CODES.map((progress) => {
      const s = given.get(progress);
      return s
        ? { progress, label: label(progress, order.orderType), at: s.at ?? null, done: !!s.done, current: !!s.current }
        : { progress, label: label(progress, order.orderType), at: null, done: false, current: false };
    });
  }
  // No steps from the server: build them from the history's times and the current progress.
  let steps = emptySteps(order.orderType, label);
  const history = [...(order.history ?? [])].sort((a, b) => a.seq - b.seq);
  for (const h of history) steps = stepsAt(steps, h.progress, h.at);
  return stepsAt(steps, order.progress, null);
}

/** The current step's words: the step's label, else the code's own (awaiting, refused…). */
export function progressLabelOf(steps: OrderStep[], progress: number, fallback: (progress: number) => string): string {
  const idx = stepIndex(progress);
  const step = idx >= 0 ? steps[idx] : undefined;
  return step?.label || fallback(progress);
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** States from which the customer may still cancel (before the store accepted). */
const CANCELLABLE_STATES = [4, 5, 6, 7];

/** The order after one `order:progress` event (its seq already judged as the next one). */
export function applyProgress(order: OrderDetail, ev: OrderProgressEvent, label: StepLabeler, fallback: (progress: number) => string): OrderDetail {
  const progress = num(ev.progress) ?? order.progress;
  const state = num(ev.state) ?? order.state;
  const at = num(ev.at);
  const steps = stepsAt(stepsOf(order, label), progress, at);
  const entry: OrderHistoryEntry = { seq: ev.seq, state, progress, actor: '', note: null, at: at ?? 0 };
  const eta = ev.eta === null ? null : (num(ev.eta) ?? order.eta ?? null);
  // The server's arrival of the new stage; an event without one (an older server) keeps none
  // rather than a time of the previous stage.
  const arrival = ev.arrival === undefined ? (order.arrival ?? null) : ev.arrival;
  return {
    ...order,
    state,
    // The server's label named the previous state: the app's own label takes over (empty).
    stateLabel: state === order.state ? order.stateLabel : '',
    progress,
    progressLabel: progressLabelOf(steps, progress, fallback),
    steps,
    eta,
    arrival,
    seq: ev.seq,
    history: [...(order.history ?? []), entry],
    canCancel: !!order.canCancel && CANCELLABLE_STATES.includes(state) && stepIndex(progress) < 0,
  };
}

export type SeqVerdict = 'apply' | 'stale' | 'gap';

/** The contract's rule: seq = last + 1 applies, seq ≤ last is old news, anything else is a gap. */
export function judgeSeq(lastSeq: number | null | undefined, seq: number): SeqVerdict {
  if (lastSeq === null || lastSeq === undefined) return 'apply';
  if (seq <= lastSeq) return 'stale';
  return seq === lastSeq + 1 ? 'apply' : 'gap';
}

export interface TrackerState {
  order: OrderDetail | null;
  /** Events that arrived before the snapshot or after a gap, by seq. */
  pending: OrderProgressEvent[];
}

export interface TrackerStep {
  state: TrackerState;
  /** A fresh snapshot is needed (a gap). */
  resync: boolean;
}

export interface Labels {
  step: StepLabeler;
  progress: (progress: number) => string;
}

export const EMPTY_TRACKER: TrackerState = { order: null, pending: [] };

function addPending(pending: OrderProgressEvent[], ev: OrderProgressEvent): OrderProgressEvent[] {
  if (pending.some((p) => p.seq === ev.seq)) return pending;
  return [...pending, ev].sort((a, b) => a.seq - b.seq);
}

/** Applies what of `pending` follows the order's seq; answers whether a gap is left. */
function drain(order: OrderDetail, pending: OrderProgressEvent[], labels: Labels): TrackerStep {
  let current = order;
  const left: OrderProgressEvent[] = [];
  for (const ev of pending) {
    const verdict = judgeSeq(current.seq, ev.seq);
    if (verdict === 'apply') current = applyProgress(current, ev, labels.step, labels.progress);
    else if (verdict === 'gap') left.push(ev);
  }
  return { state: { order: current, pending: left }, resync: left.length > 0 };
}

/** An `order:progress` event of this order. */
export function onProgress(state: TrackerState, ev: OrderProgressEvent, labels: Labels): TrackerStep {
  if (typeof ev.seq !== 'number' || !Number.isFinite(ev.seq)) return { state, resync: true };
  // No snapshot yet: keep it for when the snapshot comes.
  if (!state.order) return { state: { ...state, pending: addPending(state.pending, ev) }, resync: false };
  const verdict = judgeSeq(state.order.seq, ev.seq);
  if (verdict === 'stale') return { state, resync: false };
  if (verdict === 'gap') return { state: { ...state, pending: addPending(state.pending, ev) }, resync: true };
  return drain(applyProgress(state.order, ev, labels.step, labels.progress), state.pending, labels);
}

/**
 * A snapshot (the `order:watch` ack or GET /orders/{orderNo}). One older than what is shown
 * (an answer that raced with events) is ignored; the events held back are applied on top.
 */
export function onSnapshot(state: TrackerState, snapshot: OrderDetail, labels: Labels): TrackerStep {
  const shown = state.order;
  if (shown && shown.orderNo === snapshot.orderNo && typeof shown.seq === 'number' && typeof snapshot.seq === 'number' && snapshot.seq < shown.seq) {
    return { state, resync: false };
  }
  const steps = stepsOf(snapshot, labels.step);
  const order: OrderDetail = {
    ...snapshot,
    steps,
    progressLabel: progressLabelOf(steps, snapshot.progress, labels.progress),
  };
  return drain(order, state.pending, labels);
}
