import { useState, type FormEvent } from 'react';
import { MIN_CHARACTER_AGE } from '@reverie/shared';
import { Modal } from '../../../components/ui/modal';
import { useTranslation } from '../../../lib/i18n';

export interface PersonaFields {
  name: string;
  age: number;
  description: string;
}

const field =
  'w-full rounded-xl border border-white/10 bg-bg/60 px-4 py-3 text-base outline-none transition placeholder:text-muted focus:border-primary focus:ring-2 focus:ring-primary/30';

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
  const [name, setName] = useState(defaultName);
  const [age, setAge] = useState(25);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSubmit({ name: name.trim(), age, description: description.trim() });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} onClose={onClose} title={t('transform.persona_title')}>
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          {t('transform.persona_name')}
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} className={field} />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          {t('transform.persona_age')}
          <input
            required
            type="number"
            min={MIN_CHARACTER_AGE}
            max={200}
            value={age}
            onChange={(e) => setAge(Number(e.target.value))}
            className={field}
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          {t('transform.persona_description')}
          <textarea
            required
            maxLength={1000}
            rows={3}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className={field}
          />
        </label>
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 transition hover:brightness-110 disabled:opacity-60"
        >
          {t('transform.persona_save')}
        </button>
      </form>
    </Modal>
  );
}
