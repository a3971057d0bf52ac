/** What a dialog about one message of a chat is given (report, "what went into the prompt"); closed while `messageId` is null. */
export type MessageDialogProps = {
  chatId: string;
  messageId: string | null;
  onClose: () => void;
};
