import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { BlurredPictureHint } from './blurred-picture-hint';
import { Icon } from './icon';

/**
 * The sticky bar on top of a full-screen page: back (`backLabel` names it), then `children`. The
 * chat's header and a character's memories.
 */
export function BackHeader({
  backLabel,
  onBack,
  backTestId,
  gap,
  children,
}: {
  backLabel: string;
  onBack: () => void;
  backTestId: string;
  /** The space between its items: `gap-1`, `gap-2`. */
  gap: string;
  children: ReactNode;
}) {
  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-bg/90 pt-[env(safe-area-inset-top)] backdrop-blur">
      <div className={`mx-auto flex h-14 w-full max-w-3xl items-center ${gap} px-1.5 sm:px-3`}>
        <button
          type="button"
          onClick={onBack}
          aria-label={backLabel}
          data-testid={backTestId}
          className="rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg"
        >
          <Icon icon={ArrowLeft} size="md" />
        </button>
        {children}
      </div>
    </header>
  );
}

/** A character's round picture in such a bar ("Log in to see" over a blurred one), or its place. */
export function HeaderAvatar({ url }: { url: string | null | undefined }) {
  return url ? (
    <span className="relative shrink-0 rounded-full">
      <img src={url} alt="" className="h-9 w-9 rounded-full object-cover" />
      <BlurredPictureHint url={url} look="cover" />
    </span>
  ) : (
    <span className="h-9 w-9 shrink-0 rounded-full bg-surface" aria-hidden="true" />
  );
}
