import type { TMailMessage } from './mailer';

/** An app path (`/tasks?task=…`) as the absolute address people open from their mailbox. */
export const absoluteLink = (publicUrl: string, path: string) => new URL(path, publicUrl).toString();

/**
 * What notify() mails a member: the notification's title and body and a link into the app. The
 * link stays a path until the mail is sent, where the sending instance's PUBLIC_URL makes it
 * absolute (notify runs inside a feature's transaction, which has no configuration at hand).
 */
export type TNotificationMail = { to: string; title: string; body: string | null; link: string | null };

export function notificationMessage(publicUrl: string, m: TNotificationMail): TMailMessage {
  const link = m.link ? absoluteLink(publicUrl, m.link) : null;
  return {
    to: m.to,
    subject: m.title,
    text: [
      m.body,
      link ? `Open it: ${link}` : null,
      'You can choose which notifications you get by email under My account → Notifications.',
    ]
      .filter(Boolean)
      .join('\n\n')
      .concat('\n'),
    notes: link ? { link } : {},
  };
}
