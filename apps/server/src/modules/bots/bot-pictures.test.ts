import { beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_CHARACTERS } from './official-characters.js';
import { DEFAULT_IMAGE_MODERATION, LocalImageModeration } from '../../providers/image-moderation/image-moderation.js';
import { renderPicture } from './bot-pictures.js';

/** The models load once per process (the shared worker thread), so a second judge costs little. */
const judge = new LocalImageModeration(DEFAULT_IMAGE_MODERATION);
beforeAll(() => judge.warm(), 120_000);

describe('the offline character pictures and the local judge', () => {
  it('refuses none of a sample of the seeded official characters’ drawn pictures', async () => {
    const sample = [0, 5, 20, 25, 41].map((i) => OFFICIAL_CHARACTERS[i % OFFICIAL_CHARACTERS.length]!);
    for (const character of sample) {
      const png = await renderPicture({ seed: character.slug, look: character.look, variant: 1 });
      const result = await judge.judge(png);
      expect(result.verdict, character.slug).toBe('ok');
    }
  }, 60_000);
});
