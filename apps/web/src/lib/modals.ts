import { useSearchParams } from 'react-router';
import { currentReturnPath, safeNextPath } from './return-path';
import { wasAuthorizedOnce } from './session';

/**
 * Modals are opened by query flags (spec §2) — one mechanism for all of them:
 * `?login=1`, `?signup=1`, `?premium=1&from=…`, `?pw=1&from=…`, `?create=1` (create a character).
 */
export const MODAL_FLAGS = ['login', 'signup', 'premium', 'pw', 'create'] as const;
export type ModalName = (typeof MODAL_FLAGS)[number];
/** Query parameters that belong to a modal and go away when it closes. */
const MODAL_PARAMS = [...MODAL_FLAGS, 'from', 'next'];

export interface ModalProps {
  onClose: () => void;
  /** Where the modal was opened from (`from=`), for analytics and wording. */
  from: string | null;
  /** Where to go after success (`next=`), a same-site path. */
  next: string | null;
  /** Opens another modal in place of this one (login ↔ signup). */
  switchTo: (name: ModalName, params?: Record<string, string>) => void;
  /**
   * For a guest: opens sign-up or log-in (`authModalName`) in place of this modal, with
   * `next` set to this page with this modal open again, so they carry on where they were.
   */
  requireAuth: () => void;
}

/** The open modal's name: the first flag set to 1. */
export function openModalName(params: URLSearchParams): ModalName | null {
  return MODAL_FLAGS.find((flag) => params.get(flag) === '1') ?? null;
}

/**
 * Keeps `next` to same-site paths so a link cannot send the user elsewhere (no `//host`,
 * scheme, backslash, dot segment or encoded slash: `lib/return-path.ts`).
 */
export const safeNext = (value: string | null): string | null => safeNextPath(value);

/**
 * The modal a "log in to continue" moment opens: sign-up for a visitor who has never logged
 * in on this device, log-in for someone who has (the other is one tap away in each).
 */
export const authModalName = (): 'login' | 'signup' => (wasAuthorizedOnce() ? 'login' : 'signup');

/** Opening and closing modals by query flag. */
export function useModal() {
  const [params, setParams] = useSearchParams();
  const open = (name: ModalName, extra: Record<string, string> = {}) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      MODAL_PARAMS.forEach((key) => key !== 'next' && next.delete(key));
      next.set(name, '1');
      Object.entries(extra).forEach(([key, value]) => next.set(key, value));
      return next;
    });
  };
  const close = () => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        MODAL_PARAMS.forEach((key) => next.delete(key));
        return next;
      },
      { replace: true },
    );
  };
  /**
   * "Log in to continue": opens sign-up or log-in (`authModalName`) with `next`, by default
   * the page the visitor is on, so that they come back to it once signed in.
   */
  const requireAuth = (next: string = currentReturnPath(), extra: Record<string, string> = {}) => {
    const safe = safeNextPath(next);
    open(authModalName(), { ...extra, ...(safe ? { next: safe } : {}) });
  };
  return { name: openModalName(params), params, open, close, requireAuth };
}
