/**
 * Editions (PRODUCT.md §7): `APP_NAME` selects the branding. Nothing else in the code
 * depends on the edition.
 */
export const EDITION_IDS = ['reverie', 'amoura'] as const;
export type EditionId = (typeof EDITION_IDS)[number];

export interface Edition {
  id: EditionId;
  name: string;
  /** Short English tagline used in page descriptions and e-mails. */
  tagline: string;
  supportEmail: string;
  /** The community chat the news banner links to. */
  communityUrl: string;
  domain: string;
  colors: {
    /** Main accent (buttons, active tab). */
    primary: string;
    /** Text on the accent colour. */
    onPrimary: string;
    /** Second accent for gradients. */
    secondary: string;
    /** Page background. */
    background: string;
    /** Raised surfaces (cards, bars). */
    surface: string;
  };
}

export const EDITIONS: Record<EditionId, Edition> = {
  reverie: {
    id: 'reverie',
    name: 'Reverie',
    tagline: 'AI companions who remember you',
    supportEmail: 'support@reverie.chat',
    communityUrl: 'https://discord.gg/reverie-chat',
    domain: 'reverie.chat',
    colors: {
      primary: '#8b5cf6',
      onPrimary: '#ffffff',
      secondary: '#ec4899',
      background: '#0f0b1a',
      surface: '#1a1428',
    },
  },
  amoura: {
    id: 'amoura',
    name: 'Amoura',
    tagline: 'Warm conversations with AI companions',
    supportEmail: 'support@amoura.app',
    communityUrl: 'https://t.me/amoura_community',
    domain: 'amoura.app',
    colors: {
      primary: '#f43f5e',
      onPrimary: '#ffffff',
      secondary: '#fb923c',
      background: '#170b0e',
      surface: '#24131a',
    },
  },
};

export function isEditionId(value: unknown): value is EditionId {
  return typeof value === 'string' && (EDITION_IDS as readonly string[]).includes(value);
}

export function getEdition(id: string | null | undefined): Edition {
  return isEditionId(id) ? EDITIONS[id] : EDITIONS.reverie;
}
