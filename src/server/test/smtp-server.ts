import { SMTPServer } from 'smtp-server';

export type TReceivedMail = { from: string; to: string[]; data: string };

/** The message as a person reads it: quoted-printable soft breaks and escapes undone. */
export const readable = (m: TReceivedMail | undefined) =>
  (m?.data ?? '')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * A real SMTP server (the `smtp-server` package) on loopback for tests: it keeps what it receives
 * and can refuse the next recipients with a permanent 550, as a mail provider refusing a delivery
 * would, or put them off with a temporary 451, as a throttling one would.
 */
export async function startSmtpServer() {
  const received: TReceivedMail[] = [];
  let refuse = 0;
  let refuseOnly: ((address: string) => boolean) | null = null;
  let defer = 0;
  let deferOnly: string | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (defer > 0 && (!deferOnly || address.address === deferOnly)) {
        defer--;
        const error = new Error('Try again later (throttled by the test server)') as Error & {
          responseCode: number;
        };
        error.responseCode = 451;
        callback(error);
        return;
      }
      if (refuse > 0 && (!refuseOnly || refuseOnly(address.address))) {
        refuse--;
        const error = new Error('Mailbox unavailable (refused by the test server)') as Error & {
          responseCode: number;
        };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Answers the next `n` recipients (or only those at `only`) with a temporary 451, as a throttling provider would. */
    deferNext(n = 1, only: string | null = null) {
      defer = n;
      deferOnly = only;
    },
    /** Refuses the next `n` recipients (or only those `only` picks). */
    refuseNext(n = 1, only: ((address: string) => boolean) | null = null) {
      refuse = n;
      refuseOnly = only;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
