import { requestRaw } from './api-raw';

/**
 * Downloads the character's Character Card (PNG with `chara` and `ccv3` chunks) with the
 * user's token, so that the author's private characters download too.
 */
export async function downloadCard(slug: string): Promise<void> {
  const response = await requestRaw(`/api/bot/${encodeURIComponent(slug)}/card.png`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `${slug}.card.png`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
