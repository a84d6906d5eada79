import { z } from 'zod';
import { zInt, zString } from './fields';
import { INBOX_VIEWS, type TInboxView } from './messages-constants';

export { INBOX_VIEWS, type TInboxView } from './messages-constants';

// Client messages (issue 38): threads per client, with the client's portal users and the firm's
// members on them; internal notes and @mentions stay with the firm.

export const MESSAGES_FOLDER = 'Messages';
export const THREAD_STATUSES = ['open', 'closed'] as const;
export type TThreadStatus = (typeof THREAD_STATUSES)[number];

export const INBOX_VIEW_LABELS: Record<TInboxView, string> = {
  all: 'All',
  mine: 'Mine',
  unassigned: 'Unassigned',
  unread: 'Unread',
};

export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
export const THREAD_PAGE_SIZE = 25;
/** A thread's messages are read newest-first a page at a time; the screen shows them oldest-first. */
export const MESSAGE_PAGE_SIZE = 50;

const zSubject = zString()
  .trim()
  .min(1, 'Enter a subject')
  .max(200, 'A subject must be at most 200 characters');
const zBody = zString()
  .trim()
  .min(1, 'Write a message first')
  .max(MAX_MESSAGE_LENGTH, `A message must be at most ${MAX_MESSAGE_LENGTH} characters`);
const zIds = (message: string, max: number, maxMessage: string) =>
  z
    .array(z.uuid(message))
    .max(max, maxMessage)
    .default([])
    .transform((ids) => [...new Set(ids)]);
const zAttachmentIds = zIds(
  'Attach files you uploaded',
  MAX_ATTACHMENTS_PER_MESSAGE,
  `Attach at most ${MAX_ATTACHMENTS_PER_MESSAGE} files to a message`,
);
const zMentions = zIds('Mention members from the list', 50, 'At most 50 mentions');

export const ZHeldRef = z.object({ heldId: z.uuid('Choose a held mail from the list') });

/**
 * A held mail released into a conversation: an existing thread of the member's choice, or a new one
 * of a client (its subject the mail's, unless given). `internal` (the default) posts it as a note the
 * client does not see; unchecked, the client's people on the thread see it.
 */
export const ZHeldRelease = z
  .object({
    heldId: z.uuid('Choose a held mail from the list'),
    threadId: z.uuid('Choose a conversation').optional(),
    clientId: z.uuid('Choose a client').optional(),
    subject: zSubject.optional(),
    internal: z.boolean().default(true),
  })
  .refine((v) => v.threadId || v.clientId, {
    message: 'Choose a conversation, or a client for a new one',
    path: ['threadId'],
  });
export type THeldRelease = z.output<typeof ZHeldRelease>;
export type THeldReleaseInput = z.input<typeof ZHeldRelease>;

/** A message's file saved (a copy) into another folder of the thread's client's documents. */
export const ZAttachmentSave = z.object({
  documentId: z.uuid('Choose a file of the conversation'),
  folderId: z.uuid('Choose a folder'),
});
export type TAttachmentSave = z.output<typeof ZAttachmentSave>;

export const ZThreadRef = z.object({ threadId: z.uuid('This conversation link is not valid') });

export const ZThreadCreate = z.object({
  clientId: z.uuid('Choose a client'),
  subject: zSubject,
  body: zBody,
  /** The client's portal users on the thread; none is an internal thread about the client. */
  clientUserIds: zIds('Choose people from the list', 50, 'At most 50 people'),
  memberIds: zIds('Choose members from the list', 50, 'At most 50 members'),
  assigneeId: z.uuid('Choose a member').nullable().default(null),
});
export type TThreadCreate = z.output<typeof ZThreadCreate>;
export type TThreadCreateInput = z.input<typeof ZThreadCreate>;

export const ZMessagePost = z.object({
  threadId: z.uuid('This conversation link is not valid'),
  body: zBody,
  /** An internal note: the firm's members only, never the client. */
  internal: z.boolean().default(false),
  mentions: zMentions,
  attachmentIds: zAttachmentIds,
});
export type TMessagePost = z.output<typeof ZMessagePost>;

export const ZThreadUpdate = z.object({
  threadId: z.uuid('This conversation link is not valid'),
  status: z.enum(THREAD_STATUSES, 'Choose open or closed').optional(),
  assigneeId: z.uuid('Choose a member').nullable().optional(),
  subject: zSubject.optional(),
});
export type TThreadUpdate = z.output<typeof ZThreadUpdate>;

export const ZThreadPeople = z.object({
  threadId: z.uuid('This conversation link is not valid'),
  clientUserIds: zIds('Choose people from the list', 50, 'At most 50 people'),
  memberIds: zIds('Choose members from the list', 50, 'At most 50 members'),
});
export type TThreadPeople = z.output<typeof ZThreadPeople>;

export const ZClientRef = z.object({ clientId: z.uuid('Choose a client') });

export const ZThreadList = z.object({
  view: z.enum(INBOX_VIEWS, 'Choose a view').default('all'),
  clientId: z.uuid('Choose a client').optional(),
  status: z.enum([...THREAD_STATUSES, 'any'], 'Choose a status').default('open'),
  search: zString().trim().max(200, 'Search must be at most 200 characters').optional(),
  page: zInt().min(1).max(10_000).default(1),
  pageSize: zInt().min(1).max(100).default(THREAD_PAGE_SIZE),
});
export type TThreadList = z.output<typeof ZThreadList>;
export type TThreadListInput = z.input<typeof ZThreadList>;

export const ZMessagePage = z.object({
  threadId: z.uuid('This conversation link is not valid'),
  /** Messages before this sequence number (the older page); absent: the newest page. */
  before: zInt().min(1).max(2_147_483_647).optional(),
  limit: zInt().min(1).max(200).default(MESSAGE_PAGE_SIZE),
});
export type TMessagePage = z.output<typeof ZMessagePage>;

// The portal's side (the client id comes with every portal call and is checked by the procedure).
export const ZPortalThreadList = z.object({
  clientId: z.uuid(),
  page: zInt().min(1).max(10_000).default(1),
});
export const ZPortalThreadRef = z.object({ clientId: z.uuid(), threadId: z.uuid() });
export const ZPortalMessagePage = ZPortalThreadRef.extend({
  before: zInt().min(1).max(2_147_483_647).optional(),
});
/** A new thread from the portal: files come with the next message (an upload needs its thread). */
export const ZPortalThreadCreate = z.object({
  clientId: z.uuid(),
  subject: zSubject,
  body: zBody,
});
export type TPortalThreadCreate = z.output<typeof ZPortalThreadCreate>;
export const ZPortalMessagePost = z.object({
  clientId: z.uuid(),
  threadId: z.uuid('This conversation link is not valid'),
  body: zBody,
  attachmentIds: zAttachmentIds,
});
export type TPortalMessagePost = z.output<typeof ZPortalMessagePost>;

/** The text a thread row shows of its last message: one line, at most 140 characters. */
export function previewOf(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

export const threadLink = (threadId: string, clientId: string) =>
  `/clients/${clientId}/messages?thread=${threadId}`;
export const portalThreadLink = (threadId: string, clientId: string) =>
  `/clientportal/${clientId}/messages?thread=${threadId}`;
export const messageAttachmentPath = (documentId: string) =>
  `/api/messages/attachments/${documentId}/download`;
export const portalMessageAttachmentPath = (clientId: string, documentId: string) =>
  `/api/clientportal/${clientId}/messages/attachments/${documentId}/download`;
export const MESSAGE_UPLOAD_PATH = '/api/messages/upload';
export const PORTAL_MESSAGE_UPLOAD_PATH = '/api/clientportal/messages/upload';
