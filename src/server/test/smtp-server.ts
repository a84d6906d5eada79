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
 * would.
 */
export async function startSmtpServer() {
  const received: TReceivedMail[] = [];
  let refuse = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refuse > 0) {
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
    /** Refuses the next `n` recipients. */
    refuseNext(n = 1) {
      refuse = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
