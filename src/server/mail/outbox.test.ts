import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, readOutbox } from '.';

// The laptop's outbox: each message as a file, and its links printed as plain lines a person can
// click in the terminal, not only inside the JSON log line.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'practice-outbox-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the mail outbox', () => {
  it('prints each link and code on a line of its own, and writes the message', async () => {
    const printed: string[] = [];
    const logged: object[] = [];
    const mailer = createMailer(
      { smtpUrl: undefined, from: 'Practice <no-reply@practice.test>', outboxDir: dir },
      { info: (obj) => logged.push(obj) },
      (lines) => printed.push(lines),
    );
    const link = 'http://localhost:3000/auth/verify/eyJ1IjoiYXNoYSJ9';
    await mailer.send({
      to: 'asha@rao.test',
      subject: 'Verify your email',
      text: `Open ${link}`,
      notes: { link, code: '123456' },
    });
    expect(printed).toEqual([`Mail to asha@rao.test: Verify your email\n  link: ${link}\n  code: 123456\n`]);
    // The link stands alone on its line: nothing after it for a terminal to take into the address.
    expect(printed[0]?.split('\n')).toContain(`  link: ${link}`);
    expect(logged).toEqual([expect.objectContaining({ to: 'asha@rao.test', link })]);
    expect((await readOutbox(dir)).map((m) => m.notes.link)).toEqual([link]);

    // A message without links prints nothing.
    await mailer.send({ to: 'asha@rao.test', subject: 'Hello', text: 'Hi' });
    expect(printed).toHaveLength(1);
  });
});
