/**
 * Which column each card field of an edit is written to, as sent: the author's form
 * (`BotsService.updateOwnBot`; `personality` and `tags` are written apart) and the console's,
 * which edits every card field (`BotsManageService`).
 */
export const AUTHOR_EDIT_COLUMNS = {
  name: 'name',
  age: 'age',
  description: 'description',
  greeting: 'greeting',
  scenario: 'scenario',
  occupation: 'occupation',
  visibility: 'visibility',
  example_messages: 'exampleMessages',
  voice: 'voice',
} as const;

export const CONSOLE_EDIT_COLUMNS = {
  ...AUTHOR_EDIT_COLUMNS,
  slug: 'slug',
  alternate_greetings: 'alternateGreetings',
  personality_text: 'personalityText',
  example_messages: 'exampleMessages',
  system_prompt: 'systemPrompt',
  post_history_instructions: 'postHistoryInstructions',
  creator_notes: 'creatorNotes',
  personality: 'personality',
  voice: 'voice',
} as const;

/** A character's tags as its author or the console sets them: once each, never `official` or `custom`. */
export const ownTags = (tags: string[]) => [...new Set(tags.filter((t) => t !== 'official' && t !== 'custom'))];
