/** A group's faces, overlapping (the chats list, the chat's header): the first few, then "+N". */
export function StackedFaces({
  faces,
  size = 'md',
  max = 3,
}: {
  faces: { name: string; avatar_url: string | null }[];
  size?: 'sm' | 'md';
  max?: number;
}) {
  const shown = faces.slice(0, max);
  const more = faces.length - shown.length;
  const box = size === 'sm' ? 'h-9 w-9' : 'h-14 w-14';
  const face = size === 'sm' ? 'h-6 w-6' : 'h-9 w-9';
  return (
    <span className={`relative block shrink-0 ${box}`} data-testid="stacked-faces" aria-hidden="true">
      {shown.map((f, index) => {
        // Spread along the diagonal: the first at the top left, the last at the bottom right.
        const step = shown.length > 1 ? index / (shown.length - 1) : 0.5;
        const offset = `calc(${step} * (100% - ${size === 'sm' ? '1.5rem' : '2.25rem'}))`;
        return f.avatar_url ? (
          <img
            key={index}
            src={f.avatar_url}
            alt=""
            className={`absolute rounded-full border-2 border-bg object-cover ${face}`}
            style={{ left: offset, top: offset, zIndex: index }}
          />
        ) : (
          <span
            key={index}
            className={`absolute rounded-full border-2 border-bg bg-surface ${face}`}
            style={{ left: offset, top: offset, zIndex: index }}
          />
        );
      })}
      {more > 0 && (
        <span className="absolute -right-1 -bottom-1 z-10 rounded-full bg-primary px-1 text-[0.6rem] leading-4 font-semibold text-on-primary">
          +{more}
        </span>
      )}
    </span>
  );
}

/** A group's name when it has no title: its characters' names, "Mira, Jun and Sol". */
export function groupName(names: string[], and: string): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} ${and} ${names.at(-1)}`;
}
