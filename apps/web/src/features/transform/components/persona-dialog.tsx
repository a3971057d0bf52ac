import { useState, type FormEvent } from 'react';
import { CharacterBasics, type CharacterBasicsValue } from '../../../components/ui/character-basics';
import { Modal } from '../../../components/ui/modal';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useTranslation } from '../../../lib/i18n';

export interface PersonaFields {
  name: string;
  age: number;
  description: string;
}

/** A new persona with the result as its photo: its name, age and a few words about it. */
export function PersonaDialog({
  open,
  onClose,
  onSubmit,
  defaultName,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (fields: PersonaFields) => Promise<void>;
  defaultName: string;
}) {
  const { t } = useTranslation();
  const [basics, setBasics] = useState<CharacterBasicsValue>({ name: defaultName, age: '25', description: '' });
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSubmit({ name: basics.name.trim(), age: Number(basics.age), description: basics.description.trim() });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} onClose={onClose} title={t('transform.persona_title')}>
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <CharacterBasics
          value={basics}
          onChange={(field, value) => setBasics((current) => ({ ...current, [field]: value }))}
          labels={{
            name: t('transform.persona_name'),
            age: t('transform.persona_age'),
            description: t('transform.persona_description'),
          }}
          required
        />
        <SubmitButton busy={busy}>{t('transform.persona_save')}</SubmitButton>
      </form>
    </Modal>
  );
}
