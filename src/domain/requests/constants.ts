// Client requests' vocabulary (issue 36), shared by the schema, the server and the screens.

/** What an item asks for: files, an answer of one kind, or the client's acknowledgement. */
export const ITEM_KINDS = [
  'file',
  'short_text',
  'long_text',
  'yes_no',
  'choice',
  'date',
  'amount',
  'number',
  'acknowledgement',
] as const;
export type TItemKind = (typeof ITEM_KINDS)[number];

export const ITEM_KIND_LABELS: Record<TItemKind, string> = {
  file: 'Files',
  short_text: 'Short answer',
  long_text: 'Long answer',
  yes_no: 'Yes or no',
  choice: 'Choice',
  date: 'Date',
  amount: 'Amount',
  number: 'Number',
  acknowledgement: 'Acknowledgement',
};

/** The answers a yes/no item can have, as conditions and answers spell them. */
export const YES_NO = ['yes', 'no'] as const;

/** The kinds a later item's "shown when" may depend on: their answers are one of a few values. */
export const CONDITION_KINDS = ['yes_no', 'choice'] as const satisfies readonly TItemKind[];

export const REQUEST_STATUSES = [
  'draft',
  'sent',
  'in_progress',
  'submitted',
  'returned',
  'complete',
  'cancelled',
] as const;
export type TRequestStatus = (typeof REQUEST_STATUSES)[number];
/** What a badge shows: the stored status, or Overdue when an open request is past its due date. */
export type TRequestDisplayStatus = TRequestStatus | 'overdue';

/** Waiting on the client: the states a due date still matters in. */
export const AWAITING_CLIENT = [
  'sent',
  'in_progress',
  'returned',
] as const satisfies readonly TRequestStatus[];
/** Not finished: what the staff's "open" filter and the portal's home show. */
export const OPEN_REQUEST_STATUSES = [
  ...AWAITING_CLIENT,
  'submitted',
] as const satisfies readonly TRequestStatus[];

export const REQUEST_STATUS_LABELS: Record<TRequestDisplayStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  in_progress: 'In progress',
  submitted: 'Submitted',
  returned: 'Returned',
  complete: 'Complete',
  cancelled: 'Cancelled',
  overdue: 'Overdue',
};

export const REQUEST_STATUS_TONES: Record<
  TRequestDisplayStatus,
  'grey' | 'blue' | 'yellow' | 'green' | 'red'
> = {
  draft: 'grey',
  sent: 'blue',
  in_progress: 'blue',
  submitted: 'yellow',
  returned: 'yellow',
  complete: 'green',
  cancelled: 'grey',
  overdue: 'red',
};

/** Who sent a request: a member, or a project's template by itself before the project's due date. */
export const REQUEST_ORIGINS = ['staff', 'project_template'] as const;
export type TRequestOrigin = (typeof REQUEST_ORIGINS)[number];

/** The firm's review of one answer: none yet, accepted, or returned to the client with a reason. */
export const REVIEW_STATES = ['pending', 'accepted', 'returned'] as const;
export type TReviewState = (typeof REVIEW_STATES)[number];

export const MAX_SECTIONS = 30;
export const MAX_ITEMS = 150;
export const MAX_CHOICES = 30;
export const MAX_FILES_PER_ITEM = 50;
export const MAX_RECIPIENTS = 20;
/** Typed answers are kept as typed: a long answer fits a page or two, no more. */
export const MAX_ANSWER_LENGTH = 5000;
/** An amount in minor units: far inside 2^53, the same ceiling billing uses. */
export const MAX_ANSWER_AMOUNT = 1_000_000_000_000_00;

/** Where the client answers a request in the portal. */
export const portalRequestsPath = (clientId: string) => `/clientportal/${clientId}/requests`;
export const portalRequestPath = (clientId: string, requestId: string) =>
  `/clientportal/${clientId}/requests/${requestId}`;

/** The staff's route for one file a client sent to a request item (held or filed). */
export const requestFilePath = (fileId: string, purpose: 'download' | 'preview' = 'download') =>
  `/api/requests/files/${fileId}/${purpose}`;

/** The requests list's status filter: every status, or the open ones. */
export const REQUEST_LIST_STATUS = ['open', ...REQUEST_STATUSES] as const;
