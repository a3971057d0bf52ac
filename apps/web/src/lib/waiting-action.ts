/**
 * An action that stopped for want of desires (unblur, a transform), waiting for the
 * buy-desires modal: when the daily claim there brings the balance to its cost, the modal runs
 * it again at once — the user taps "Claim" and the picture unblurs, with no second tap.
 * It lives in this page only (a checkout or a reload drops it; the page keeps what the user
 * did in its own way: docs/transform.md "Web").
 */
export interface WaitingAction {
  /** The modal's `from` the action opened it with (`unblur`, `transform`): only that modal runs it. */
  from: string;
  /** Desires the action needs. */
  cost: number;
  /** Runs the action again. */
  run: () => void;
}

let waiting: WaitingAction | null = null;

/** Sets the action to run once the balance covers it (replaces any earlier one). */
export function waitForDesires(action: WaitingAction): void {
  waiting = action;
}

/** The action waiting for the modal opened `from` there, if any, without taking it. */
export function peekWaitingAction(from: string | null): WaitingAction | null {
  return waiting && waiting.from === from ? waiting : null;
}

/** Takes the action waiting for the modal opened `from` there (it is run at most once). */
export function takeWaitingAction(from: string | null): WaitingAction | null {
  const action = peekWaitingAction(from);
  if (action) waiting = null;
  return action;
}

/** Forgets the waiting action (the modal closed without it). */
export function dropWaitingAction(): void {
  waiting = null;
}
