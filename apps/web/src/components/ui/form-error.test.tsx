import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorAndCount } from './form-error';

afterEach(() => cleanup());

describe('ErrorAndCount', () => {
  it('keeps the count in one piece beside a long error (a refused memory on a phone)', () => {
    const long =
      "This can't be remembered: memories never hold anything about minors or intimate details about other people.";
    render(<ErrorAndCount error={long} errorId="e" count="52 / 500" />);
    const count = screen.getByTestId('field-count');
    expect(count.textContent).toBe('52 / 500');
    // The count neither shrinks nor wraps; the error takes what is left and wraps.
    expect(count.className.split(' ')).toEqual(expect.arrayContaining(['shrink-0', 'whitespace-nowrap']));
    expect(screen.getByRole('alert').className).toContain('min-w-0');
  });
});
