/**
 * Validation texts of the specification (§5). The keys are translation keys under
 * `validation.` in every locale file; the English values are the specification's words.
 */
export const VALIDATION_MESSAGES = {
  required: 'Fill in the field',
  username_required: 'Please enter your username',
  email_required: 'Please enter your email',
  email_invalid: 'Enter a valid email address',
  username_max: 'Username must contain no more than 100 characters',
  text_max: 'Text must contain no more than 1000 characters',
  password_required: 'Please enter your password',
  password_min: 'Password must be 6 or more characters',
  password_max: 'Password must be 255 or less characters',
  name_required: 'Please enter name',
  passwords_mismatch: 'Passwords do not match',
  age_confirm_required: 'Please confirm that you are over 18',
  invalid_value: 'Invalid value',
  too_many_items: 'Too many items',
  control_characters: 'This field cannot contain control or invisible characters',
  too_long: 'This text is too long',
  /** An age under 18 (a user's own, in Settings): says why rather than "Invalid value". */
  age_min_18: 'You must be 18 or older to use this site',
  chat_title_max: 'A chat title can have at most 80 characters',
  rights_required: 'Confirm that you have the rights to this photo',
} as const;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

/** Error texts of the specification (§8), keyed by stable error code. */
export const ERROR_MESSAGES = {
  something_went_wrong: 'Something went wrong',
  invalid_code: 'Invalid code',
  email_not_verified: 'Email is not verified',
  payment_error: 'Payment processing error',
  profile_update_error: 'Profile update error. Try again',
  persona_create_failed: 'Failed to create persona',
  report_failed: 'Something went wrong. Try again',
  chat_start_failed: 'Failed to start a new chat',
  inappropriate_content: 'Inappropriate content',
  purchase_success:
    'Purchase successful. Adding desires or premium may take up to 5 minutes, so refresh or contact support.',
  not_found: 'Not found',
  validation_error: 'Some fields are not filled in correctly',
  unauthorized: 'Please log in to continue',
  forbidden: 'You do not have permission to do this',
  rate_limited: 'Too many requests. Please wait a moment and try again',
  payload_too_large: 'The request is too large',
  unsupported_media_type: 'This type of content is not supported',
  internal_error: 'Internal Server Error',
  service_unavailable: 'The service is not ready yet',
  insufficient_desires: 'Not enough desires',
  not_enough_desires: 'Not enough desires',
  subscription_cancel_failed: 'Your subscription could not be cancelled, so nothing was deleted. Please try again.',
  invalid_signature: 'Webhook signature is missing or invalid',
  already_subscribed: 'You already have Premium',
  payments_not_configured: 'Payments are not set up on this site yet, so nothing can be bought right now.',
  cannot_resume: 'This subscription cannot be resumed.',
  generation_in_progress: 'The character is still answering. Wait for the reply or stop it first.',
  cannot_regenerate: 'This message cannot be regenerated',
  premium_required: 'This is a Premium feature',
  unknown_model: 'This model is not available',
  model_unavailable: 'The AI model is not available right now. Please try again later.',
  model_loading: 'The AI model is still loading. Try again in a minute.',
  provider_error: 'The AI could not answer. Try again.',
  timeout: 'The reply took too long. Try again.',
  empty_reply: 'The character sent an empty reply. Try again.',
  interrupted: 'The reply was interrupted. Try again.',
  refused: 'This message breaks the content rules and was not sent.',
  json_too_deep: 'The request is nested too deeply',
  range_not_satisfiable: 'The requested part of the file is outside the file',
  invalid_cursor: 'This page link is no longer valid. Reload the list.',
  voice_unavailable: "Only the character's finished text messages can be played as voice",
  call_in_progress: 'You are already in a call. Hang up there first.',
  call_minutes_exhausted: "You have used today's call minutes. Calls are possible again tomorrow.",
  stt_unavailable: 'Speech recognition is not available on this server, so calls cannot start.',
  transform_in_progress: 'Another transform is still running. Wait for it to finish.',
  transform_not_verified: 'Confirm your rights to the photo first',
  transform_not_allowed: 'This transform can no longer be changed',
  transform_failed: 'The transform failed and your desires were refunded',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;
