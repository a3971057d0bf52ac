/**
 * What other modules may use of the transforms module: where a user's transform files live
 * (delete all data, takedown) and the deleter of their rows.
 */
export { userTransformPrefix } from './media-keys.js';
export { deleteUserTransforms } from './transforms.repository.js';
