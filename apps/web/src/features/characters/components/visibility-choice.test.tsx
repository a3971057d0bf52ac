import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { VisibilityChoice, type Visibility } from './visibility-choice';

beforeAll(async () => {
  await initI18n('en');
});

function Harness({ seen }: { seen: Visibility[] }) {
  const [value, setValue] = useState<Visibility>('private');
  return (
    <VisibilityChoice
      value={value}
      onChange={(v) => {
        seen.push(v);
        setValue(v);
      }}
      publicLabel="Everyone (after review)"
    />
  );
}

describe('VisibilityChoice', () => {
  it('is one radio group: private chosen first, a click chooses public and says so', () => {
    const seen: Visibility[] = [];
    render(
      <AppProviders>
        <Harness seen={seen} />
      </AppProviders>,
    );
    const mine = screen.getByRole('radio', { name: 'Only me' });
    const everyone = screen.getByRole('radio', { name: 'Everyone (after review)' });
    expect(screen.getByRole('radiogroup')).toBeTruthy();
    expect(mine.getAttribute('aria-checked')).toBe('true');
    expect(everyone.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(everyone);
    expect(seen).toEqual(['public']);
    expect(everyone.getAttribute('aria-checked')).toBe('true');
    expect(mine.getAttribute('aria-checked')).toBe('false');
  });
});
