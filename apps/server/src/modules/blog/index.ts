import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { blogRoutes } from './blog.routes.js';
import { BlogService } from './blog.service.js';
import { deletePost, findPostForUpdate, insertPost, listAllPosts, updatePost } from './blog.repository.js';

export type BlogModuleDeps = Pick<Core, 'db'>;

/** The blog module: `GET /api/blog` (keyset pages) and `GET /api/blog/{id}`. */
export const blogModule = defineModule<BlogModuleDeps>('blog', async (app, deps) => {
  await app.register(blogRoutes, { service: new BlogService(deps) });
});

/**
 * What other modules may use: the page meta of `/blog/{id}` and the media route's check of a
 * cover read a published post; the admin console writes posts with these functions inside its
 * own transaction (the post and its audit record commit together), which is why they take a
 * `db` that may be a transaction.
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
/** The admin console's posts: these functions, each given the console's transaction. */
export const consolePosts = { listAllPosts, findPostForUpdate, insertPost, updatePost, deletePost };
/** The shipped posts (content/blog) and their seed. */
export { readShippedBlogPosts, seedBlogPosts } from './blog.seed.js';
