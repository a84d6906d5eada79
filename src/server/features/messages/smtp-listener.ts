import { SMTPServer } from 'smtp-server';
import { receiveInbound, type TInboundDeps } from './inbound';
import { parseInboundAddress } from './inbound-address';

type TLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/**
 * The product's own SMTP listener for replies and forwards (smtp-server): on only when
 * INBOUND_MAIL_DOMAIN and INBOUND_SMTP_PORT are set. It takes mail for our addresses only (any other
 * recipient is refused at RCPT, so it is never an open relay), announces and enforces the size
 * limit, needs no login (mail servers deliver without one), and hands each message to
 * receiveInbound once it is whole. STARTTLS is left to a relay in front where one is wanted.
 */
export async function startInboundSmtp(deps: TInboundDeps, log: TLog) {
  const inbound = deps.config.inbound;
  if (!inbound || inbound.smtpPort === null) return null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: inbound.maxBytes,
    logger: false,
    banner: 'Practice inbound mail',
    onRcptTo(address, _session, callback) {
      void parseInboundAddress(deps.config, deps.db, address.address).then(
        (target) => {
          if (target) return callback();
          const error = new Error('No such mailbox here') as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
        },
        (error: Error) => callback(error),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= inbound.maxBytes) chunks.push(chunk);
      });
      stream.on('end', () => {
        // smtp-server marks a message past `size` as too long; it is refused, not stored.
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded || size > inbound.maxBytes) {
          const error = new Error('Message is too large') as Error & { responseCode: number };
          error.responseCode = 552;
          callback(error);
          return;
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        receiveInbound(deps, Buffer.concat(chunks), recipients).then(
          (outcomes) => {
            log.info({ outcomes: outcomes.map((o) => o.outcome) }, 'inbound mail received');
            callback();
          },
          (error: Error) => {
            log.warn({ err: error }, 'inbound mail failed');
            const failure = new Error('Please try again later') as Error & { responseCode: number };
            failure.responseCode = 451;
            callback(failure);
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(inbound.smtpPort ?? 0, inbound.smtpHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.warn({ err: error }, 'inbound SMTP error'));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : (inbound.smtpPort ?? 0);
  log.info({ port, domain: inbound.domain }, 'inbound SMTP listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
