import { describe, expect, it } from 'vitest';
import { toTakedownBody, validateTakedownForm } from './takedown-form';

const SITE = 'https://reverie.test';
const values = {
  items: `${SITE}/some-character\n0b9a6b1e-5a4f-4c59-9f5e-0c2a7e1d3b44\n`,
  email: 'jane@example.test',
  description: 'This shows me without my consent.',
  signature: 'Jane Doe',
  statement: true,
};

describe('takedown form validation', () => {
  it('accepts a complete request and splits links from message ids', () => {
    expect(validateTakedownForm(values, SITE)).toEqual({ errors: {}, lineErrors: [] });
    expect(toTakedownBody(values)).toMatchObject({
      urls: [`${SITE}/some-character`],
      message_ids: ['0b9a6b1e-5a4f-4c59-9f5e-0c2a7e1d3b44'],
    });
  });

  it('names each missing or wrong field, and the line of a foreign or unknown link', () => {
    const checked = validateTakedownForm(
      {
        items: `${SITE}/ok-character\nhttps://elsewhere.example/x\n${SITE}/settings`,
        email: 'nope',
        description: '',
        signature: '',
        statement: false,
      },
      SITE,
    );
    expect(checked.errors).toMatchObject({
      email: 'email_invalid',
      description: 'takedown_description_required',
      signature: 'takedown_signature_required',
      statement: 'takedown_statement_required',
    });
    expect(checked.lineErrors).toEqual([
      { line: 2, key: 'takedown_link_foreign' },
      { line: 3, key: 'takedown_item_invalid' },
    ]);
    expect(validateTakedownForm({ ...values, items: '  \n' }, SITE).errors.items).toBe('takedown_items_required');
  });
});
