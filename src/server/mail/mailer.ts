import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { TConfig } from '../config';

export type TMailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Copied in (a broadcast to a client copies its portal people). */
  cc?: string[];
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on a broadcast). */
  headers?: Record<string, string>;
  /** A stable Message-ID, so a message sent twice is recognisably the same one. */
  messageId?: string;
  /** Links and codes worth printing in the log when the message goes to the outbox. */
  notes?: Record<string, string>;
  /** Files sent with it (an invoice's PDF). Made when the message is sent, never queued as bytes. */
  attachments?: TMailAttachment[];
};

export type TMailAttachment = { filename: string; content: Buffer; contentType: string };

/** Addresses the server refused while it took the message for the others (none: undefined). */
export type TMailPartial = { rejected: string[]; answer: string };
// biome-ignore lint/suspicious/noConfusingVoidType: a mailer that only sends (the demo's, a test's) answers nothing.
export type TMailer = { send(message: TMailMessage): Promise<TMailPartial | undefined | void> };

type TLog = { info(obj: object, msg: string): void };

/**
 * The outbox's message for the person at the terminal: who it is for, then each link and code on
 * a line of its own, which a terminal makes clickable (the JSON log line buries them in quotes).
 */
export function outboxLines(m: Pick<TMailMessage, 'to' | 'subject' | 'notes'>): string {
  const notes = Object.entries(m.notes ?? {}).map(([name, value]) => `  ${name}: ${value}\n`);
  return `Mail to ${m.to}: ${m.subject}\n${notes.join('')}`;
}

/**
 * The transport, made at the first message: nodemailer is loaded then rather than at every start.
 * One promise, so messages sent meanwhile share the one transport (and its SMTP connections).
 */
function lazyTransport<T>(make: (nodemailer: TNodemailer) => Transporter<T>) {
  let transport: Promise<Transporter<T>> | undefined;
  return () => {
    transport ??= import('nodemailer').then((m) => make(m.default));
    return transport;
  };
}
type TNodemailer = typeof import('nodemailer')['default'];

/**
 * SMTP when SMTP_URL is set; otherwise an outbox: each message is written to the mail directory as
 * `<time>-<random>.json` (with the full .eml text inside) and its notes go to the log, so a newcomer
 * can register and verify on a laptop without a mail server.
 *
 * One instance per process, made at the composition root (app.ts): the job that sends queued mail
 * uses it, and so do the few codes sent at the moment of the request (sign-in and confirmation
 * codes). An SMTP transport keeps its connections between messages.
 */
export function createMailer(
  mail: TConfig['mail'],
  log?: TLog,
  /** Where the outbox prints its messages' links as plain lines (the server's stdout; tests: nowhere). */
  print?: (lines: string) => void,
): TMailer {
  const envelopeOf = (m: TMailMessage) => ({
    from: mail.from,
    to: m.to,
    ...(m.cc?.length ? { cc: m.cc } : {}),
    subject: m.subject,
    text: m.text,
    html: m.html,
    ...(m.headers ? { headers: m.headers } : {}),
    ...(m.messageId ? { messageId: m.messageId } : {}),
    ...(m.attachments?.length ? { attachments: m.attachments } : {}),
  });
  if (mail.smtpUrl) {
    // Timeouts, so a hung server fails the attempt (the job's heartbeat would hold its lease for as
    // long as the send hangs). The URL's own parameters win.
    const transport = lazyTransport((nodemailer) =>
      nodemailer.createTransport({
        url: mail.smtpUrl,
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
      }),
    );
    return {
      async send(m) {
        const info = await (await transport()).sendMail(envelopeOf(m));
        // Some addresses refused, others taken: the message went out, and the caller hears which.
        const rejected = ((info.rejected ?? []) as (string | { address: string })[]).map((r) =>
          typeof r === 'string' ? r : r.address,
        );
        return rejected.length
          ? { rejected, answer: info.rejectedErrors?.map((e) => e.message).join('; ') ?? '' }
          : undefined;
      },
    };
  }
  let sequence = 0;
  const stream = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(m) {
      const info = await (await stream()).sendMail(envelopeOf(m));
      const eml = Buffer.isBuffer(info.message) ? info.message.toString('utf8') : String(info.message);
      await fs.mkdir(mail.outboxDir, { recursive: true, mode: 0o700 });
      // Time, then a per-process sequence: names sort in sending order within one instance.
      sequence = (sequence + 1) % 1_000_000;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.json`;
      const file = path.join(mail.outboxDir, name);
      const record = {
        from: mail.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        notes: m.notes ?? {},
        ...(m.attachments?.length
          ? { attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })) }
          : {}),
        eml,
      };
      await fs.writeFile(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
      log?.info({ to: m.to, subject: m.subject, file, ...m.notes }, 'mail written to the outbox');
      if (print && m.notes && Object.keys(m.notes).length > 0) print(outboxLines(m));
    },
  };
}

export type TOutboxMessage = {
  from: string;
  to: string;
  subject: string;
  text: string;
  notes: Record<string, string>;
  /** The files it carried (their bytes are in `eml`). */
  attachments?: { filename: string; contentType: string }[];
  /** The whole message as sent (RFC 5322), attachments included. */
  eml: string;
};

/** Reads the outbox, oldest first (tests and local tooling). */
export async function readOutbox(outboxDir: string): Promise<TOutboxMessage[]> {
  let names: string[];
  try {
    names = (await fs.readdir(outboxDir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => JSON.parse(await fs.readFile(path.join(outboxDir, n), 'utf8'))));
}
