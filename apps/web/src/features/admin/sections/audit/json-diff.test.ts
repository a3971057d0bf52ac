import { describe, expect, it } from 'vitest';
import { jsonDiff } from './json-diff';

describe('jsonDiff', () => {
  it('lists changed fields first, then the unchanged ones, as readable text', () => {
    expect(
      jsonDiff(
        { email: 'a@x.test', role: 'user', banned_at: null, balance: 3 },
        { email: 'a@x.test', role: 'admin', banned_at: '2026-01-01T00:00:00.000Z', balance: 3, extra: { a: 1 } },
      ),
    ).toEqual([
      { key: 'role', before: 'user', after: 'admin', changed: true },
      { key: 'banned_at', before: 'null', after: '2026-01-01T00:00:00.000Z', changed: true },
      { key: 'extra', before: '', after: '{"a":1}', changed: true },
      { key: 'email', before: 'a@x.test', after: 'a@x.test', changed: false },
      { key: 'balance', before: '3', after: '3', changed: false },
    ]);
  });

  it('handles a missing side (a creation or a deletion)', () => {
    expect(jsonDiff(null, { role: 'admin' })).toEqual([{ key: 'role', before: '', after: 'admin', changed: true }]);
    expect(jsonDiff({ email: 'a@x.test' }, null)).toEqual([
      { key: 'email', before: 'a@x.test', after: '', changed: true },
    ]);
    expect(jsonDiff(null, null)).toEqual([]);
  });
});
