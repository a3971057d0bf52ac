/**
 * `npm run moderation:measure`: the picture judge on the labelled test pictures
 * (`test/fixtures/faces/`, LICENSES.md) and on every seeded official character's drawn
 * pictures: per picture the faces (estimated age, detection score), the nudity scores, the
 * verdict and the time; the cold start (worker + models) and the warm time per picture; the
 * process's memory. Figures go into bench/README.md ("Image moderation"). Offline.
 *
 *   npm run moderation:measure             fixtures and all seeded pictures
 *   npm run moderation:measure -- --quick  fixtures and the seeded avatars only
 *   npm run moderation:measure -- --face-score=0.3   judge weaker faces too (what drawings give)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OFFICIAL_CHARACTERS, renderPicture } from '../modules/bots/index.js';
import { DEFAULT_IMAGE_MODERATION, LocalImageModeration } from '../providers/image-moderation/index.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/faces');

/** The labelled test pictures and what the judge should answer (LICENSES.md says where each comes from). */
const LABELLED = [
  { file: 'astronaut-nasa.png', label: 'adult (Eileen Collins, 1990s)', expect: 'ok' },
  { file: 'grace-hopper-usn.jpg', label: 'adult (Grace Hopper, ~77)', expect: 'ok' },
  { file: 'cameraman.png', label: 'adult (cameraman)', expect: 'ok' },
  { file: 'coffee-cc0.png', label: 'no person', expect: 'ok' },
  {
    file: 'adversarial-minor-astronaut.png',
    label: 'DERIVED: adult face perturbed to score as a minor',
    expect: 'minor',
  },
  { file: 'adversarial-explicit-coffee.png', label: 'DERIVED: coffee perturbed to score as porn', expect: 'explicit' },
] as const;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  const quick = process.argv.includes('--quick');
  const faceScoreArg = process.argv.find((arg) => arg.startsWith('--face-score='));
  const settings = {
    ...DEFAULT_IMAGE_MODERATION,
    ...(faceScoreArg ? { faceScore: Number(faceScoreArg.split('=')[1]) } : {}),
  };
  const judge = new LocalImageModeration(settings);
  const rssBefore = process.memoryUsage().rss;
  console.log(
    `settings: minimum age ${settings.minAge}, face score ${settings.faceScore}, explicit ${settings.explicitScore}`,
  );

  const rows: { name: string; verdict: string; ok: boolean; ms: number; detail: string }[] = [];
  let cold: number | null = null;
  const warm: number[] = [];
  async function measure(name: string, bytes: Buffer, expect?: string) {
    const started = performance.now();
    const result = await judge.judge(bytes);
    const ms = Math.round(performance.now() - started);
    if (cold === null) cold = ms;
    else warm.push(ms);
    const faces =
      result.faces.map((f) => `age ${f.age.toFixed(1)} (score ${f.score.toFixed(2)})`).join(', ') || 'no face';
    const n = result.nudity;
    const detail = `${faces}; porn ${n.porn.toFixed(3)} hentai ${n.hentai.toFixed(3)} sexy ${n.sexy.toFixed(3)} drawing ${n.drawing.toFixed(3)}`;
    const ok = expect ? result.verdict === expect : result.verdict !== 'minor';
    rows.push({ name, verdict: result.verdict, ok, ms, detail });
    console.log(
      `${ok ? 'ok  ' : 'MISS'} ${name.padEnd(58)} ${result.verdict.padEnd(8)} ${String(ms).padStart(5)} ms  ${detail}`,
    );
  }

  console.log('\nlabelled test pictures');
  for (const picture of LABELLED) {
    if (!fs.existsSync(path.join(FIXTURES, picture.file))) {
      console.log(`skip ${picture.file}: missing (node scripts/make-moderation-fixtures.mjs makes the derived ones)`);
      continue;
    }
    await measure(
      `${picture.file} — ${picture.label}`,
      fs.readFileSync(path.join(FIXTURES, picture.file)),
      picture.expect,
    );
  }
  const rssLoaded = process.memoryUsage().rss;

  console.log(
    `\nseeded official characters' drawn pictures (${quick ? 'avatars' : 'avatars and galleries'}; none may be refused)`,
  );
  let drawings = 0;
  let facesSeen = 0;
  for (const character of OFFICIAL_CHARACTERS) {
    const gender = /\+m\d/.test(character.voice) ? 'm' : 'f';
    for (let variant = 0; variant <= (quick ? 0 : 3); variant++) {
      const png = await renderPicture({ seed: character.slug, look: character.look, variant, gender });
      const before = rows.length;
      await measure(`${character.slug} #${variant} (${character.look})`, png);
      drawings++;
      if (!rows[before]!.detail.startsWith('no face')) facesSeen++;
    }
  }

  const sorted = [...warm].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  const misses = rows.filter((r) => !r.ok);
  console.log('\nsummary');
  console.log(`  cold (worker start + models + first picture): ${cold} ms; models alone ${judge.thread.loadMs} ms`);
  console.log(`  warm per picture: median ${pct(50)} ms, p95 ${pct(95)} ms over ${warm.length} pictures`);
  console.log(
    `  memory (process RSS): ${mb(rssBefore)} before, ${mb(rssLoaded)} with the models loaded, ${mb(process.memoryUsage().rss)} at the end`,
  );
  console.log(
    `  seeded drawings: ${drawings} judged, ${facesSeen} with a face at score ≥ ${settings.faceScore}, ${rows.filter((r) => r.verdict === 'minor' && !r.name.includes('.')).length} refused`,
  );
  console.log(
    `  ${misses.length ? `${misses.length} unexpected verdict(s): ${misses.map((m) => m.name).join('; ')}` : 'every verdict as expected'}`,
  );
  await judge.thread.kill();
  process.exitCode = misses.length ? 1 : 0;
}

await main();
