import '../texts';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { COMPANION_DAILY_CAP_MAX, type CompanionSettings, type CompanionSettingsBody } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Skeleton } from '../../../components/ui/page';
import { CheckboxRow } from '../../../components/ui/switch-row';
import { useTranslation } from '../../../lib/i18n';
import { browserTimeZone } from '../api/keys';
import { useCompanionSettings } from '../api/get-companion-settings';
import { useUpdateCompanionSettings } from '../api/update-companion-settings';

const field =
  'rounded-xl border border-white/10 bg-bg px-3 py-2 text-sm focus:border-primary/60 focus:outline-none disabled:opacity-60';

/** One end of the quiet hours. */
function TimeField({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="flex items-center gap-2">
      {label}
      <input
        type="time"
        value={value}
        required
        onChange={(e) => onChange(e.target.value)}
        className={field}
        data-testid={testId}
      />
    </label>
  );
}

/** The form, mounted once the settings are loaded so that it starts from them. */
function SettingsForm({ saved }: { saved: CompanionSettings }) {
  const { t } = useTranslation();
  const update = useUpdateCompanionSettings();
  const detected = browserTimeZone();
  const [zone, setZone] = useState(saved.time_zone ?? detected ?? 'UTC');
  const [start, setStart] = useState(saved.quiet_start);
  const [end, setEnd] = useState(saved.quiet_end);
  const [cap, setCap] = useState(saved.daily_cap);
  const [digest, setDigest] = useState(saved.email_digest);
  const zones = (() => {
    try {
      return Intl.supportedValuesOf('timeZone');
    } catch {
      return [];
    }
  })();
  const zoneOptions = [...new Set([zone, ...(detected ? [detected] : []), ...zones])];
  const onSave = async () => {
    const body: CompanionSettingsBody = {
      time_zone: zone,
      quiet_start: start,
      quiet_end: end,
      daily_cap: cap,
      email_digest: digest,
    };
    try {
      await update.mutateAsync(body);
      showAlert(t('companion.saved'));
    } catch {
      showAlert(t('companion.save_failed'), { type: 'error' });
    }
  };
  return (
    <form
      className="flex flex-col gap-4"
      data-testid="companion-settings"
      onSubmit={(event) => {
        event.preventDefault();
        void onSave();
      }}
    >
      <p className="text-sm text-muted">{t('companion.section_intro')}</p>
      <label className="flex flex-col gap-1.5 text-sm">
        <span className="font-semibold">{t('companion.time_zone')}</span>
        <select value={zone} onChange={(e) => setZone(e.target.value)} className={field} data-testid="companion-zone">
          {zoneOptions.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        {detected && detected !== zone && (
          <button
            type="button"
            onClick={() => setZone(detected)}
            className="self-start text-xs text-primary underline-offset-4 hover:underline"
            data-testid="companion-zone-detected"
          >
            {t('companion.time_zone_detected', { zone: detected })}
          </button>
        )}
      </label>
      <fieldset className="flex flex-col gap-1.5 text-sm">
        <legend className="mb-1.5 font-semibold">{t('companion.quiet_hours')}</legend>
        <div className="flex flex-wrap items-center gap-3">
          <TimeField
            label={t('companion.quiet_start')}
            value={start}
            onChange={setStart}
            testId="companion-quiet-start"
          />
          <TimeField label={t('companion.quiet_end')} value={end} onChange={setEnd} testId="companion-quiet-end" />
        </div>
        <span className="text-xs text-muted">{t('companion.quiet_note')}</span>
      </fieldset>
      <label className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-semibold">{t('companion.daily_cap')}</span>
        <input
          type="number"
          min={1}
          max={COMPANION_DAILY_CAP_MAX}
          value={cap}
          onChange={(e) => setCap(Math.min(COMPANION_DAILY_CAP_MAX, Math.max(1, Number(e.target.value) || 1)))}
          className={`${field} w-20`}
          data-testid="companion-cap"
        />
      </label>
      <CheckboxRow checked={digest} onChange={setDigest} boxClassName="mt-0.5 accent-primary" testId="companion-digest">
        <span>
          {t('companion.email_digest')}
          {!saved.email_verified && (
            <span className="block text-xs text-amber-200" data-testid="companion-digest-unverified">
              {t('companion.email_digest_unverified')}
            </span>
          )}
        </span>
      </CheckboxRow>
      <p className="text-xs text-muted">{t('companion.turn_off_note')}</p>
      <button
        type="submit"
        disabled={update.isPending}
        className="self-start rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary disabled:opacity-60"
        data-testid="companion-save"
      >
        {t('companion.save')}
      </button>
    </form>
  );
}

/** Settings → "When characters write first": time zone, quiet hours, daily cap, e-mail digest. */
export function CompanionSettingsForm() {
  const { t } = useTranslation();
  const settings = useCompanionSettings();
  const location = useLocation();
  const ref = useRef<HTMLDivElement>(null);
  // The chat's dialog and every e-mail lead here with #companion.
  useEffect(() => {
    if (location.hash === '#companion' && !settings.isPending)
      ref.current?.closest('section')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [location.hash, settings.isPending]);
  return (
    <div ref={ref}>
      {settings.isPending ? (
        <Skeleton className="h-56 w-full" />
      ) : settings.isError ? (
        <LoadFailed
          text={t('companion.load_failed')}
          retryLabel={t('companion.retry')}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <SettingsForm saved={settings.data} />
      )}
    </div>
  );
}
