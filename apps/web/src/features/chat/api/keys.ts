/** The chat feature's query keys come from the shared factories (`lib/query-keys.ts`). */
export { botKeys, chatKeys, type ChatListFilter } from '../../../lib/query-keys';
