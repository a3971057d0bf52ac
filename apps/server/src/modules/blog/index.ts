/**
 * What other modules may use of the blog module (the page meta of `/blog/{id}`). Its
 * repository is its own (eslint `reverie/no-foreign-repository-imports`).
 */
export { findPublishedPost, type BlogPostRow } from './blog.repository.js';
