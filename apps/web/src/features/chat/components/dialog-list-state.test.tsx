import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { DialogListState } from './dialog-list-state';
import '../texts';

beforeAll(async () => {
  await initI18n('en');
});

describe('DialogListState', () => {
  it('shows skeleton rows, then the failure or the list', () => {
    const list = (data: string[]) => (
      <ul>
        {data.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    );
    const { rerender, container } = render(
      <DialogListState query={{ isPending: true, isError: false, data: undefined }}>{list}</DialogListState>,
    );
    expect(container.querySelectorAll('div > *').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByRole('list')).toBeNull();
    rerender(<DialogListState query={{ isPending: false, isError: true, data: undefined }}>{list}</DialogListState>);
    expect(screen.getByRole('alert').textContent).toBeTruthy();
    rerender(<DialogListState query={{ isPending: false, isError: false, data: ['a', 'b'] }}>{list}</DialogListState>);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']);
  });
});
