import { compile } from 'html-to-text';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml, fillPlaceholders, type TPlaceholder } from '../../../domain/broadcasts';
import type { TMailMessage } from '../../mail';

// A broadcast's body is HTML a member wrote in the editor: it is sanitised when it is saved (a
// template, a broadcast), and its plain-text part is made from the filled HTML when it is sent.

/** What the editor can make, and nothing that runs or loads: no scripts, styles, frames or images. */
export function sanitizeBody(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'a',
      'ul',
      'ol',
      'li',
      'h2',
      'h3',
      'blockquote',
      'hr',
    ],
    allowedAttributes: { a: ['href', 'title'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}

export type TPendingItem = { title: string; dueDate: string | null };

/** Everything a placeholder can stand for, for one recipient. */
export type TRecipientValues = Partial<Record<Exclude<TPlaceholder, 'pending_items'>, string | null>> & {
  pending: TPendingItem[];
};

function pendingText(items: TPendingItem[]) {
  return items.map((i) => `- ${i.title}${i.dueDate ? ` (due ${i.dueDate})` : ''}`).join('\n');
}
function pendingHtml(items: TPendingItem[]) {
  if (!items.length) return '';
  const li = items.map(
    (i) => `<li>${escapeHtml(i.title)}${i.dueDate ? ` (due ${escapeHtml(i.dueDate)})` : ''}</li>`,
  );
  return `<ul>${li.join('')}</ul>`;
}

// Compiled once: building the converter costs more than converting one message.
const toText = compile({
  wordwrap: 78,
  selectors: [{ selector: 'a', options: { hideLinkHrefIfSameAsText: true } }],
});

export type TRendered = { subject: string; html: string; text: string };

/** The message one recipient gets: placeholders filled (escaped in the HTML), and its text part. */
export function renderFor(
  content: { subject: string; bodyHtml: string },
  values: TRecipientValues,
  unsubscribeUrl?: string,
): TRendered {
  const plain = { ...values, pending_items: pendingText(values.pending) };
  const subject = fillPlaceholders(content.subject, plain)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  let html = fillPlaceholders(content.bodyHtml, plain, escapeHtml, {
    pending_items: pendingHtml(values.pending),
  });
  if (unsubscribeUrl) {
    html += `<hr><p style="font-size:12px;color:#666">You get this because you are a client of ${escapeHtml(
      values.firm_name ?? 'the firm',
    )}. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a> from these mailings.</p>`;
  }
  const text = toText(html);
  return { subject: subject || '(no subject)', html, text: `${text}\n` };
}

/** The mail itself: headers for one-click unsubscribe (RFC 8058) and a stable Message-ID. */
export function broadcastMessage(
  rendered: TRendered,
  to: { email: string; cc: string[]; deliveryId: string | null; unsubscribeUrl: string | null },
  publicUrl: string,
): TMailMessage {
  const host = new URL(publicUrl).hostname || 'localhost';
  return {
    to: to.email,
    cc: to.cc,
    subject: rendered.subject,
    html: rendered.html,
    text: rendered.text,
    ...(to.unsubscribeUrl
      ? {
          headers: {
            'List-Unsubscribe': `<${to.unsubscribeUrl}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
    ...(to.deliveryId ? { messageId: `<broadcast.${to.deliveryId}@${host}>` } : {}),
    notes: to.unsubscribeUrl ? { unsubscribe: to.unsubscribeUrl } : {},
  };
}

/** A text (not HTML) with its placeholders filled for one client: a message by an automation rule. */
export function renderText(text: string, values: TRecipientValues): string {
  return fillPlaceholders(text, { ...values, pending_items: pendingText(values.pending) }).trim();
}
