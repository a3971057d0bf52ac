import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FileButton } from './file-button';

describe('FileButton', () => {
  it('opens its hidden input and hands over the chosen file once, emptying the input', () => {
    const onFile = vi.fn();
    render(<FileButton accept="image/png" label="Upload a cover" onFile={onFile} testId="cover" />);
    const input = screen.getByLabelText<HTMLInputElement>('Upload a cover');
    expect(input.type).toBe('file');
    expect(input.accept).toBe('image/png');
    const click = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByTestId('cover'));
    expect(click).toHaveBeenCalled();
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(onFile).toHaveBeenCalledWith(file);
    expect(input.value).toBe('');
    fireEvent.change(input, { target: { files: [] } });
    expect(onFile).toHaveBeenCalledTimes(1);
  });

  it('shows its children instead of the label, and waits while disabled', () => {
    render(
      <FileButton accept="*" label="Import" onFile={() => undefined} disabled testId="b">
        Uploading…
      </FileButton>,
    );
    const button = screen.getByTestId('b') as HTMLButtonElement;
    expect(button.textContent).toBe('Uploading…');
    expect(button.disabled).toBe(true);
  });
});
