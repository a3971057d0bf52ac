/**
 * What other modules may use of the transforms module: where a user's transform files live
 * (delete all data, takedown), the transform a media key belongs to, and the deleters of their rows.
 */
export { transformOfMediaKey, userTransformPrefix } from './media-keys.js';
export { deleteTransform, deleteUserTransforms } from './transforms.repository.js';
export { createTransformProvider, type TransformProvider } from './transform-provider.js';
