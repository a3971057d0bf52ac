import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ContentList, TextField } from './content-ui';

describe('TextField', () => {
  it('is a labelled input with its limit, hint and errors, and reports the text', () => {
    const onChange = vi.fn();
    render(
      <TextField
        id="title"
        label="Title"
        hint="Shown in the list"
        errors={['Too long']}
        value="Hi"
        maxLength={10}
        onChange={onChange}
      />,
    );
    const input = screen.getByLabelText<HTMLInputElement>('Title');
    expect(input.tagName).toBe('INPUT');
    expect(input.maxLength).toBe(10);
    expect(screen.getByText('Shown in the list')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Too long');
    fireEvent.change(input, { target: { value: 'Hello' } });
    expect(onChange).toHaveBeenCalledWith('Hello');
  });

  it('is a text area with more rows, or the default height with rows 0', () => {
    const { rerender } = render(
      <TextField id="s" label="Summary" value="" maxLength={5} rows={3} onChange={() => undefined} testId="s" />,
    );
    expect(screen.getByTestId('s').tagName).toBe('TEXTAREA');
    expect(screen.getByTestId('s').getAttribute('rows')).toBe('3');
    rerender(
      <TextField id="s" label="Summary" value="" maxLength={5} rows={0} onChange={() => undefined} testId="s" />,
    );
    expect(screen.getByTestId('s').getAttribute('rows')).toBeNull();
  });
});

describe('ContentList', () => {
  const base = {
    pending: false,
    error: null,
    empty: 'Nothing yet',
    render: (item: string) => <li key={item}>{item}</li>,
  };

  it('shows the error, the empty text or the items', () => {
    const { rerender } = render(<ContentList {...base} items={[]} error={new Error('Down')} />);
    expect(screen.getByRole('alert').textContent).toBe('Down');
    rerender(<ContentList {...base} items={[]} emptyTestId="empty" />);
    expect(screen.getByTestId('empty').textContent).toBe('Nothing yet');
    rerender(<ContentList {...base} items={['a', 'b']} />);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']);
  });

  it('shows a skeleton while loading', () => {
    const { container } = render(<ContentList {...base} pending items={undefined} />);
    expect(screen.queryByRole('list')).toBeNull();
    expect(container.firstElementChild).not.toBeNull();
  });
});
