import { useRef, type ReactNode } from 'react';

/**
 * A button that opens the file chooser, with its hidden input: `onFile` gets the chosen file
 * and the input is emptied, so the same file may be chosen again. `label` names the input for
 * screen readers and is the button's text unless `children` gives another.
 */
export function FileButton({
  accept,
  onFile,
  label,
  children,
  disabled = false,
  className,
  testId,
}: {
  accept: string;
  onFile: (file: File) => void;
  label: string;
  children?: ReactNode;
  disabled?: boolean;
  className?: string;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={disabled}
        onClick={() => input.current?.click()}
        data-testid={testId}
      >
        {children ?? label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
