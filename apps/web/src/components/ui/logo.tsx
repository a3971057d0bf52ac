import { currentEdition } from '../../lib/edition';

/** The edition's mark and name. */
export function Logo({ compact = false }: { compact?: boolean }) {
  const edition = currentEdition();
  return (
    <span className="flex items-center gap-2 font-semibold tracking-tight">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" className="shrink-0">
        <defs>
          <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="var(--color-primary)" />
            <stop offset="1" stopColor="var(--color-secondary)" />
          </linearGradient>
        </defs>
        {edition.id === 'amoura' ? (
          <path
            d="M16 27s-10-6.2-10-13.2C6 9.6 9 7 12.3 7c1.7 0 3 .8 3.7 2 .7-1.2 2-2 3.7-2C23 7 26 9.6 26 13.8 26 20.8 16 27 16 27z"
            fill="url(#logo-gradient)"
          />
        ) : (
          <>
            <path d="M20.5 4.5a11.5 11.5 0 1 0 7 18.6A9.5 9.5 0 0 1 20.5 4.5z" fill="url(#logo-gradient)" />
            <circle cx="24" cy="9" r="1.6" fill="var(--color-secondary)" />
          </>
        )}
      </svg>
      {!compact && <span className="text-lg">{edition.name}</span>}
    </span>
  );
}
