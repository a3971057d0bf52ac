import { BOTS_FIRST_PAGE_SIZE, type BotList, type Edition, type Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { findPublishedPost } from '../blog/index.js';
import type { BotsService } from '../bots/index.js';
import { resolvePageMeta, type PageMeta } from './page-meta.js';

/** What the web pages read of the characters (the bots module's service). */
export type WebBots = Pick<BotsService, 'findPublicBotBySlug' | 'listAvailableBots' | 'getBotDetail'>;

export interface WebServiceDeps {
  db: Database;
  bots: WebBots;
  edition: Edition;
  publicUrl: string;
}

/** What the pages of the web app carry from the server: their metadata and a first screen's data. */
export class WebService {
  constructor(private readonly deps: WebServiceDeps) {}

  /** Status, title, description and Open Graph data of a page in the reader's language (`resolvePageMeta`). */
  pageMeta(pathname: string, locale: Locale): Promise<PageMeta> {
    const { db, bots, edition, publicUrl } = this.deps;
    return resolvePageMeta(
      {
        findPublishedPost: (id) => findPublishedPost(db, id),
        findPublicBotBySlug: (slug) => bots.findPublicBotBySlug(slug),
      },
      { edition, publicUrl, pathname, locale },
    );
  }

  /**
   * A guest's first catalogue page, written into the page of `/` (issue 13: the cards without
   * waiting for the API on a slow phone).
   */
  firstCataloguePage(locale: Locale = 'en'): Promise<BotList> {
    return this.deps.bots.listAvailableBots(null, { size: BOTS_FIRST_PAGE_SIZE, tags: [] }, locale);
  }

  /** The picture address (as the API gives it) of the character a `/{slug}` page shows first. */
  async characterPicture(slug: string): Promise<string | null> {
    return (await this.deps.bots.getBotDetail(slug, null)).avatar_url;
  }
}
