/**
 * Stable machine codes of the error contract, with the English text
 * the server sends. The web app translates by code: the locale files hold the same keys
 * under `errors.`.
 */
export const ERROR_MESSAGES = {
  malformed_json: 'The request body is not valid JSON',
  bad_request: 'The request is malformed',
  validation_error: 'Some fields are invalid',
  unauthorized: 'Authentication required',
  invalid_token: 'Your session has expired, please sign in again',
  invalid_credentials: 'Invalid email or password',
  forbidden: "You don't have permission to view this page.",
  banned: 'Your account has been banned',
  suspended: 'Your account is suspended: access is limited',
  not_found: 'Not found',
  route_not_found: 'This API route does not exist',
  email_in_use: 'This email address is already in use',
  payload_too_large: 'The request is too large',
  unsupported_media_type: 'Unsupported media type',
  too_many_requests: 'Too many attempts, please try again later',
  internal: 'An unexpected error occurred',
  busy: 'The server is busy, please try again in a moment',
  request_timeout: 'The request took too long to arrive',
  // later features register their codes here too
  task_not_found: 'Task not found',
  task_not_owner: "You don't have permission to edit this task",
  deadline_past: 'Deadline must be after today',
  task_already_started: 'You have already started this task',
  task_full: 'This task has reached its maximum number of completions',
  task_unavailable: 'This task is not available',
  task_not_restartable: 'Only a rejected task can be restarted',
  task_expired: 'Your time for this task ran out: start it again to send a proof',
  task_closed: 'This task was closed and no longer takes proofs',
  appeal_not_allowed: 'Only a rejected proof whose task was not restarted can be appealed',
  appeal_window_closed: 'A rejection can be appealed for 7 days',
  appeal_exists: 'This proof was already appealed',
  appeal_not_pending: 'This appeal was already decided',
  appeal_pending: 'Your appeal is waiting for a decision: the task can be restarted once it is decided',
  submission_not_found: 'Submission not found',
  submission_not_allowed: 'You can only submit proof for a task in progress',
  submission_pending: 'A submission for this task is already waiting for review',
  proof_required: 'Please upload a proof image.',
  file_too_large: 'File size must be less than 5MB.',
  file_type: 'You can only upload image files.',
  image_field: "Send the image in the field '{{field}}'",
  image_required: 'Please choose an image to upload',
  image_too_big: 'The image dimensions are too large',
  image_unreadable: 'The image could not be read, please upload another file',
  already_reviewed: 'This item has already been reviewed',
  own_item: 'Another admin must decide on your own submissions, withdrawals and balance',
  user_banned:
    'This account is banned: its proofs cannot be approved nor its withdrawals paid (rejecting stays possible)',
  flag_not_found: 'Flag not found',
  flag_dismissed: 'This flag was already dismissed',
  feedback_required: 'Please write a feedback',
  rejection_reason_required: 'Please select a rejection reason',
  reason_required: 'You must enter a rejection reason',
  invalid_amount: 'Please enter a valid amount',
  below_minimum: 'The minimum payout amount is {{amount}}',
  insufficient_balance: 'Insufficient balance',
  account_details_required: 'Please fill in all account details completely',
  invalid_iban: 'Please enter a valid Turkish IBAN',
  invalid_papara: 'A Papara number has 10 digits',
  method_unavailable: 'This payment method is not offered',
  no_saved_account: 'No payout account is saved: enter one',
  withdrawal_not_found: 'Withdrawal not found',
  user_not_found: 'User not found',
  notification_not_found: 'Notification not found',
  user_has_money:
    'This user still has a balance or pending withdrawals, proofs or appeals: confirm the forfeit to settle them and delete the account',
  name_email_required: 'Name and email fields are required',
  ban_reason_required: 'Ban reason must be specified',
  last_admin: 'The last active admin cannot be demoted or banned',
  setup_token_invalid: "This setup link is not valid: use the link in the server's log",
  setup_done: 'Setup is complete: an admin account already exists',
  push_not_configured: 'Push notifications are not configured',
  push_failed: 'The push service refused the notification',
  notification_type_required: 'Please choose a notification type',
  notification_title_required: 'Please enter a notification title',
  notification_message_required: 'Please enter a notification message',
  player_id_required: "A user's device id is required to notify one user",
  idempotency_conflict: 'This request is already being processed',
  invalid_idempotency_key: 'The Idempotency-Key header must be 1 to 200 visible characters',
  idempotency_key_reused: 'This Idempotency-Key was already used for a different request',
  email_not_configured: 'Email is not set up on this site: please contact support',
  email_not_verified: 'Please verify your email address first',
  email_already_verified: 'Your email address is already verified',
  session_not_found: 'This session has already ended',
  two_factor_required: 'Enter the code from your authenticator app',
  two_factor_invalid: 'The code is wrong or was already used',
  two_factor_enrolment_required: 'Admins must turn on two-factor sign-in before anything else',
  two_factor_enabled: 'Two-factor sign-in is already on',
  two_factor_not_enabled: 'Two-factor sign-in is not on',
  two_factor_not_started: 'Start the two-factor setup again',
  own_two_factor: 'Turn off your own two-factor sign-in from your profile, with a code',
  note_limit: 'This account has as many notes as it may hold',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

export interface ApiErrorBody {
  success: false;
  error: {
    code: ErrorCode | string;
    message: string;
    errors?: Record<string, string>;
    banReason?: string;
    retryAfter?: number;
    [extra: string]: unknown;
  };
}

export interface ApiSuccess<T> {
  success: true;
  data: T;
}
