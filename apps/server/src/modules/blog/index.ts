/**
 * What other modules may use of the blog module: the page meta of `/blog/{id}`, the media
 * route's check of a cover, and the admin console's reads and writes (modules/admin/blog.*).
 * Its repository is its own (eslint `reverie/no-foreign-repository-imports`).
 */
export {
  deletePost,
  findPostForUpdate,
  findPublishedPost,
  insertPost,
  listAllPosts,
  updatePost,
  type BlogPostRow,
  type NewBlogPost,
} from './blog.repository.js';
export { coverUrlOf } from './blog.presenter.js';
/** The shipped posts (content/blog/*.md), inserted when missing at start and by `npm run db:seed` (src/seed.ts). */
export { readShippedBlogPosts, seedBlogPosts } from './blog.seed.js';
