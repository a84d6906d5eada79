import net from 'node:net';

export type TReceivedMail = { from: string; to: string[]; data: string };

/** The message as a person reads it: quoted-printable soft breaks and escapes undone. */
export const readable = (m: TReceivedMail | undefined) =>
  (m?.data ?? '')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * A minimal SMTP server on loopback for tests: it speaks enough of RFC 5321 for nodemailer
 * (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT, no TLS, no auth) and can refuse the next recipients
 * with a permanent 550, as a mail provider refusing a delivery would. (The `smtp-server` package
 * would do the same; it is not installed.)
 */
export async function startSmtpServer() {
  const received: TReceivedMail[] = [];
  let refuse = 0;
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let mail: TReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 localhost test SMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(mail);
          mail = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-localhost\r\n250 8BITMIME');
        else if (verb === 'HELO') reply('250 localhost');
        else if (verb === 'MAIL') {
          mail = { from: line.replace(/^MAIL FROM:\s*/i, ''), to: [], data: '' };
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          if (refuse > 0) {
            refuse--;
            reply('550 5.1.1 mailbox unavailable (refused by the test server)');
          } else {
            mail.to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
            reply('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else reply('502 5.5.2 command not implemented');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
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
