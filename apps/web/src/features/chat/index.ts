export { ChatView, GuestChatView, ChatViewSkeleton } from './components/chat-view';
export type { ChatViewProps, GuestChatViewProps, ChatCharacter } from './components/chat-view';
export { ChatList, ChatListSkeleton } from './components/chat-list';
export { useLatestChat, getOrCreateChat } from './api/get-or-create-chat';
export { useChat, getChat } from './api/get-chat';
export { useChats, sortChats } from './api/get-chats';
export { chatPath } from './api/chat-path';
