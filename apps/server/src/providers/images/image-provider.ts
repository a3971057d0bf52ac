/** What a generated picture is prompted with: the character's appearance. */
export interface CharacterLook {
  name: string;
  age: number;
  description: string;
  tags: string[];
}

export interface GeneratedImage {
  data: Buffer;
  contentType: string;
}

/**
 * Makes a picture of a character. `gallery` (the default) has no provider: the character's
 * own pictures are used, and they are the fallback whenever a provider fails.
 */
export interface ImageProvider {
  readonly name: string;
  generate(look: CharacterLook, options?: { signal?: AbortSignal }): Promise<GeneratedImage>;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max).trimEnd()}…` : text);

/**
 * The positive prompt: the character as an adult (age always stated, never below 18), its
 * description and tags, framed as a photo the character sends in a chat.
 */
export function buildImagePrompt(look: CharacterLook): string {
  const age = Math.max(18, Math.round(look.age));
  const tags = look.tags
    .map((t) => t.trim())
    .filter(Boolean)
    .slice(0, 12);
  const description = clip(look.description.replace(/\s+/g, ' ').trim(), 600);
  return [
    `A photo of ${clip(look.name.trim(), 80)}, a ${age}-year-old adult`,
    description,
    tags.length ? `Style and traits: ${tags.join(', ')}` : '',
    'Selfie sent in a private chat, looking at the camera, natural light, detailed, high quality',
  ]
    .filter(Boolean)
    .join('. ');
}

/** What generated pictures must never show (sent where the provider takes a negative prompt). */
export const NEGATIVE_PROMPT =
  'child, minor, underage, teen, young-looking, school uniform, text, watermark, deformed, blurry, low quality';
