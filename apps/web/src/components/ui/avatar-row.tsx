import { Link } from 'react-router';

export interface AvatarRowItem {
  key: string;
  to: string;
  name: string;
  avatarUrl: string | null;
  /** A second line under the name (small, muted). */
  note?: string;
}

/**
 * A titled row of round pictures with names that scrolls sideways (Explore's "Continue
 * chatting" and "Popular this week"); compact, so the characters below stay on a phone's
 * first screen.
 */
export function AvatarRow({ title, items, testId }: { title: string; items: AvatarRowItem[]; testId: string }) {
  return (
    <section className="mb-4" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`} className="mb-2 text-sm font-semibold sm:text-base">
        {title}
      </h2>
      <ul className="-mx-4 flex gap-3 overflow-x-auto px-4 pb-1 lg:-mx-0 lg:px-0">
        {items.map((item) => (
          <li key={item.key} className="w-16 shrink-0 sm:w-20">
            <Link
              to={item.to}
              className="group flex flex-col items-center gap-1 text-center"
              data-testid={`${testId}-item`}
            >
              <span className="block h-14 w-14 overflow-hidden rounded-full bg-surface ring-2 ring-transparent group-hover:ring-primary sm:h-16 sm:w-16">
                {item.avatarUrl && (
                  <img src={item.avatarUrl} alt="" className="h-full w-full object-cover" loading="lazy" />
                )}
              </span>
              <span className="w-full truncate text-xs">{item.name}</span>
              {item.note && <span className="-mt-1 w-full truncate text-[11px] text-muted">{item.note}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
