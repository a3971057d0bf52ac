import { lazy, Suspense, type ComponentType } from 'react';
import { useLocation } from 'react-router';
import { withChunkReload } from '../lib/chunk-reload';
import { type ModalName, type ModalProps, useModal } from '../lib/modals';
import { safeNextPath } from '../lib/return-path';

/** The modals the query flags open (`lib/modals.ts`), each its own lazy chunk. */
type ModalComponent = ComponentType<ModalProps>;

const registry: Record<ModalName, ModalComponent> = {
  login: lazy(withChunkReload(() => import('../features/auth/components/login-modal'))),
  signup: lazy(withChunkReload(() => import('../features/auth/components/signup-modal'))),
  premium: lazy(withChunkReload(() => import('../features/billing/components/premium-modal'))),
  pw: lazy(withChunkReload(() => import('../features/billing/components/desires-modal'))),
  create: lazy(withChunkReload(() => import('../features/characters/components/create-character-modal'))),
};

/** Renders the modal the URL's query flags name, if any, with the props every modal gets. */
export function ModalHost() {
  const { name, params, open, close, requireAuth } = useModal();
  const { pathname } = useLocation();
  if (!name) return null;
  const Component = registry[name];
  const next = safeNextPath(params.get('next'));
  const here = new URLSearchParams(params);
  here.delete('next');
  const hereWithModal = `${pathname}?${here.toString()}`;
  // Log-in ↔ sign-up keep where the visitor came from (the chat's wording) and where to go.
  const from: Record<string, string> = params.get('from') ? { from: params.get('from')! } : {};
  return (
    <Suspense fallback={null}>
      <Component
        key={name}
        onClose={close}
        from={params.get('from')}
        next={next}
        switchTo={(target, extra) => open(target, { ...from, ...extra, ...(next ? { next } : {}) })}
        requireAuth={() => requireAuth(hereWithModal)}
      />
    </Suspense>
  );
}
