/** The card a detail page's actions sit in (a report's note, a takedown's removal and rejection). */
export const actionPanelClass = 'flex flex-col gap-2 rounded-2xl border border-white/10 bg-surface p-4';

/**
 * A labelled free-text field of a detail page (a note kept with a report, an answer by
 * e-mail, a takedown's note or reason); the buttons that send it sit beside it.
 */
export function NoteField({
  id,
  label,
  value,
  onChange,
  rows = 3,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
}) {
  return (
    <>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="rounded-xl border border-white/10 bg-bg/60 px-3 py-2 text-sm"
      />
    </>
  );
}
