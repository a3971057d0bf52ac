import { useEffect, useRef, useState } from 'react';
import { ImagePlus, X } from 'lucide-react';
import { IMAGE_MAX_BYTES } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { useTranslation } from '../../../lib/i18n';

/**
 * A character's photo with its preview (the create form and the author's edit form): a chosen
 * file is checked here first (an image, at most IMAGE_MAX_BYTES); the server judges it again.
 * `current`: the picture it has now (the edit form), shown until another is chosen.
 */
export function PhotoField({
  photo,
  current,
  onChange,
  error,
  onError,
  hint,
}: {
  photo: File | null;
  current?: string | null;
  onChange: (file: File | null) => void;
  error?: string;
  onError: (message: string | undefined) => void;
  hint: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!photo) return setPreview(null);
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) return onError(t('create_character.photo_not_image'));
    if (file.size > IMAGE_MAX_BYTES) return onError(t('create_character.photo_too_big'));
    onError(undefined);
    onChange(file);
  };
  const shown = preview ?? current ?? null;

  return (
    <div className="flex items-center gap-4">
      <button
        type="button"
        onClick={() => input.current?.click()}
        className="flex h-24 w-24 shrink-0 items-center justify-center overflow-hidden rounded-2xl border border-dashed border-white/20 bg-bg text-muted hover:border-primary"
        aria-label={t('create_character.photo_choose')}
      >
        {shown ? (
          <img src={shown} alt="" className="h-full w-full object-cover" />
        ) : (
          <Icon icon={ImagePlus} size="xl" />
        )}
      </button>
      <div className="min-w-0 text-sm">
        <p className="font-medium">{t('create_character.photo')}</p>
        <p className="text-xs text-muted">{hint}</p>
        {photo && (
          <button
            type="button"
            onClick={() => {
              onChange(null);
              if (input.current) input.current.value = '';
            }}
            className="mt-1 flex items-center gap-1 text-xs text-muted hover:text-fg"
          >
            <Icon icon={X} size="sm" />
            {t('create_character.photo_remove')}
          </button>
        )}
        {error && <p className="mt-1 text-xs text-red-400">{error}</p>}
      </div>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
        className="sr-only"
        data-testid="photo-input"
        tabIndex={-1}
        onChange={(e) => choose(e.target.files?.[0])}
      />
    </div>
  );
}
