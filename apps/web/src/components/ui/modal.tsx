import { lazy, Suspense, useState } from 'react';
import type { ModalProps } from './modal-dialog';

const loadDialog = () => import('./modal-dialog');
const ModalDialog = lazy(loadDialog);

/** Starts loading the dialog code ahead (e.g. on hover of the button that opens one). */
export const preloadModal = () => void loadDialog();

/**
 * An accessible dialog (focus trap, Escape, scroll lock) in the app's style. The Radix code
 * (≈ 13 kB gzipped) is fetched when a dialog first opens (`modal-dialog.tsx`), not with the
 * page: a closed dialog renders nothing. Once opened it stays mounted, so Radix closes it
 * and returns the focus as usual.
 */
export function Modal(props: ModalProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
