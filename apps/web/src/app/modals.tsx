import { lazy, Suspense, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { withChunkReload } from '../lib/chunk-reload';

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
}

type ModalComponent = ComponentType<ModalProps>;

const registry: Record<ModalName, ModalComponent> = {
  login: lazy(withChunkReload(() => import('../features/auth/components/login-modal'))),
  signup: lazy(withChunkReload(() => import('../features/auth/components/signup-modal'))),
  premium: lazy(withChunkReload(() => import('../features/billing/components/premium-modal'))),
  pw: lazy(withChunkReload(() => import('../features/billing/components/desires-modal'))),
  create: lazy(withChunkReload(() => import('../features/characters/components/create-character-modal'))),
};

/** The open modal's name: the first flag set to 1. */
export function openModalName(params: URLSearchParams): ModalName | null {
  return MODAL_FLAGS.find((flag) => params.get(flag) === '1') ?? null;
}

/** Keeps `next` to same-site paths so a link cannot send the user elsewhere. */
export function safeNext(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

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
  return { name: openModalName(params), params, open, close };
}

export function ModalHost() {
  const { name, params, open, close } = useModal();
  if (!name) return null;
  const Component = registry[name];
  return (
    <Suspense fallback={null}>
      <Component
        key={name}
        onClose={close}
        from={params.get('from')}
        next={safeNext(params.get('next'))}
        switchTo={(target, extra) =>
          open(target, { ...extra, ...(params.get('next') ? { next: params.get('next')! } : {}) })
        }
      />
    </Suspense>
  );
}
