import { requestRaw } from '../../../lib/api-raw';

/**
 * Downloads the chat (GET /api/chat/{id}/export) as SillyTavern chat JSONL or plain text, with
 * the user's token; the file name is the server's.
 */
export async function exportChat(chatId: string, format: 'jsonl' | 'txt'): Promise<void> {
  const response = await requestRaw(`/api/chat/${encodeURIComponent(chatId)}/export?format=${format}`);
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = named ?? `chat.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
