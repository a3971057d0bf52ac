import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminCharacter } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { CharacterRow } from './characters-section';

const character = (deleted: boolean) =>
  ({
    id: '8d1c4f0e-0000-4000-8000-000000000011',
    slug: 'wren',
    name: 'Wren',
    age: 27,
    avatar_url: null,
    visibility: 'private',
    is_official: false,
    review_state: 'approved',
    deleted_at: deleted ? '2026-11-20T10:00:00.000Z' : null,
  }) as unknown as AdminCharacter;

beforeAll(async () => {
  await initI18n('en');
});

describe('a character in the console list', () => {
  it('says that its author deleted it instead of calling it private', () => {
    render(
      <AppProviders>
        <MemoryRouter>
          <CharacterRow character={character(true)} />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(screen.getByText('Deleted by the author')).toBeTruthy();
    expect(screen.queryByText('Private')).toBeNull();
  });

  it('shows a private character as private', () => {
    render(
      <AppProviders>
        <MemoryRouter>
          <CharacterRow character={character(false)} />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(screen.getByText('Private')).toBeTruthy();
    expect(screen.queryByText('Deleted by the author')).toBeNull();
  });
});
