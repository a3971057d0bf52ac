import type { Config } from '../../config.js';
import { ComfyUiImageProvider } from './comfyui.js';
import type { ImageProvider } from './image-provider.js';
import { OpenAiImageProvider } from './openai-images.js';

export type { CharacterLook, GeneratedImage, ImageProvider } from './image-provider.js';

/** The image provider the settings select; null for `gallery` (the character's own pictures). */
export function createImageProvider(config: Config): ImageProvider | null {
  switch (config.IMAGE_PROVIDER) {
    case 'comfyui':
      return new ComfyUiImageProvider({
        baseUrl: config.IMAGE_BASE_URL ?? 'http://127.0.0.1:8188',
        apiKey: config.IMAGE_API_KEY,
        workflowPath: config.COMFYUI_WORKFLOW,
      });
    case 'openai':
      return new OpenAiImageProvider({
        baseUrl: config.IMAGE_BASE_URL ?? 'https://api.openai.com/v1',
        apiKey: config.IMAGE_API_KEY,
        model: config.IMAGE_MODEL,
      });
    default:
      return null;
  }
}
