export { ChatPicture, type ChatPictureProps } from './components/chat-picture';
export { unblurImage, useUnblurImage } from './api/unblur-image';
