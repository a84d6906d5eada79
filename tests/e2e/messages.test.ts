import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageHeldFiles, messagesHeld } from '../../src/server/db/schema';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInToPortal, signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { cutOff } from './support/fit';

// Client messages end to end (issue 38): a member starts a conversation from the client's page and
// sends a file, adds an internal note; the client, on a phone, sees the unread badge, reads the
// message (not the note), downloads the file and answers with a file of their own; the member sees
// the answer in the firm's inbox, unread, with the client's file.

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const file = (name: string, text: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`),
});

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

describe('messages in the browser', () => {
  it('a member and a client talk, with a file each way; notes stay with the firm', async () => {
    const firm = await app.seedFirm('Sharma & Associates');
    const { client } = await seedPortalClient(app, firm, 'Mehta Traders');
    const portalUser = await seedPortalUser(app, {
      orgId: firm.org.id,
      clientIds: [client.id],
      name: 'Priya Mehta',
    });

    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(staffContext, app, firm.owner);
    const { page: staff, console: staffConsole } = await newPage(staffContext);

    await staff.goto(`${app.url}/clients/${client.id}/messages`);
    await staff.getByText('No conversations here').waitFor();
    await staff.getByRole('button', { name: 'New conversation' }).click();
    const dialog = staff.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByLabel('Subject').fill('Your ITR for FY 2025-26');
    await dialog.getByLabel('Message').fill('Hello Priya, we are starting on your return.');
    await dialog.getByRole('checkbox', { name: /Priya Mehta/ }).click();
    await dialog.getByRole('button', { name: 'Start conversation' }).click();
    await staff.waitForURL(/thread=[0-9a-f-]{36}/);
    const pane = staff.getByRole('region', { name: 'Conversation: Your ITR for FY 2025-26' });
    await pane.getByText('Hello Priya, we are starting on your return.').waitFor();

    // A reply with a file, then an internal note.
    await pane.getByLabel('Attach files').setInputFiles([file('checklist.pdf', 'the checklist')]);
    await pane.getByRole('list', { name: 'Files to send' }).getByText('checklist.pdf').waitFor();
    await pane.getByRole('textbox', { name: 'Message' }).fill('The checklist is attached.');
    await expect.poll(() => pane.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    await pane.getByRole('button', { name: 'Send' }).click();
    await pane.getByRole('list', { name: 'Messages' }).getByText('The checklist is attached.').waitFor();
    await pane.getByRole('list', { name: 'Attachments' }).getByText('checklist.pdf').waitFor();
    await pane.getByRole('switch', { name: 'Internal note' }).click();
    await pane.getByRole('textbox', { name: 'Internal note' }).fill('Fee still unpaid, hold the filing.');
    await pane.getByRole('button', { name: 'Add note' }).click();
    await pane.getByText('Fee still unpaid, hold the filing.').waitFor();
    expect(await cutOff(staff)).toEqual([]);
    await screenshot(staff, 'messages-staff-thread');

    // The client, on a phone: the badge, the thread, the file; never the note.
    const phoneContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await signInToPortal(phoneContext, app, portalUser.token);
    const { page: phone, console: phoneConsole } = await newPage(phoneContext);
    await phone.goto(`${app.url}/clientportal/${client.id}/messages`);
    const bar = phone.getByRole('navigation', { name: 'Portal sections' });
    await bar.getByRole('link', { name: /2 unread.*Messages|Messages.*2 unread/ }).waitFor();
    const row = phone.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Your ITR/ });
    await row.getByText('2 unread').waitFor();
    await noSidewaysScroll(phone);
    await screenshot(phone, 'messages-portal-list');
    await row.click();
    await phone.waitForURL(/thread=/);
    await phone.getByText('The checklist is attached.').waitFor();
    expect(await phone.getByText('Fee still unpaid').count()).toBe(0);
    const download = phone.waitForEvent('download');
    await phone.getByRole('button', { name: /checklist\.pdf/ }).click();
    expect((await download).suggestedFilename()).toBe('checklist.pdf');
    // Reading cleared the badge.
    await expect.poll(() => bar.getByRole('link', { name: /unread/ }).count()).toBe(0);

    await phone.getByLabel('Attach files').setInputFiles([file('form16.pdf', 'form 16')]);
    await phone.getByRole('list', { name: 'Files to send' }).getByText('form16.pdf').waitFor();
    await phone.getByRole('textbox', { name: 'Message' }).fill('Here is my Form 16.');
    await expect.poll(() => phone.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    await phone.getByRole('button', { name: 'Send' }).click();
    await phone.getByRole('list', { name: 'Messages' }).getByText('Here is my Form 16.').waitFor();
    await noSidewaysScroll(phone);
    expect(await cutOff(phone)).toEqual([]);
    await screenshot(phone, 'messages-portal-thread');

    // Back at the firm: the inbox has it unread, with the client's file.
    await staff.goto(`${app.url}/messages?view=unread`);
    const inboxRow = staff
      .getByRole('list', { name: 'Conversations' })
      .getByRole('button', { name: /Your ITR/ });
    await inboxRow.getByText('Here is my Form 16.').waitFor();
    await inboxRow.getByText('1 unread').waitFor();
    await inboxRow.click();
    const again = staff.getByRole('region', { name: 'Conversation: Your ITR for FY 2025-26' });
    await again.getByRole('list', { name: 'Attachments' }).getByText('form16.pdf').waitFor();
    // A task from the client's message, linked both ways: its description names the thread, and a
    // note in the thread names the task.
    await again
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'Here is my Form 16.' })
      .getByRole('button', { name: 'Make a task' })
      .click();
    await staff.getByText('Task made, and noted in the conversation').waitFor();
    await again.getByText(/Made a task from Priya Mehta’s message/).waitFor();
    // Someone added to the thread after it started.
    await again.getByRole('combobox', { name: 'Add someone' }).click();
    await staff.getByRole('option', { name: 'Sam Staff', exact: true }).click();
    await again.getByText(/Team: .*Sam Staff/).waitFor();
    await expect
      .poll(async () => staff.getByRole('list', { name: 'Conversations' }).count())
      .toBeGreaterThanOrEqual(0);
    await screenshot(staff, 'messages-staff-inbox');

    // The client's file saved (a copy) into another folder of their documents.
    await again
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'Here is my Form 16.', hasNotText: 'Made a task' })
      .getByRole('button', { name: 'Save form16.pdf to folder' })
      .click();
    const saveDialog = staff.getByRole('dialog', { name: 'Save form16.pdf to a folder' });
    await saveDialog.getByRole('radio', { name: /Working papers/ }).click();
    await saveDialog.getByRole('button', { name: 'Save here' }).click();
    await staff.getByText('Saved “form16.pdf”').waitFor();
    await expect.poll(() => saveDialog.count()).toBe(0);

    // A request started from the message, its text already in.
    await again
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'Here is my Form 16.', hasNotText: 'Made a task' })
      .getByRole('button', { name: 'Start a request' })
      .click();
    const requestDialog = staff.getByRole('dialog', { name: 'New request' });
    await expect
      .poll(() => requestDialog.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe('Your ITR for FY 2025-26');
    await expect
      .poll(() => requestDialog.getByRole('textbox', { name: 'Message', exact: true }).inputValue())
      .toBe('Here is my Form 16.');
    await requestDialog.getByRole('button', { name: 'Cancel' }).click();

    // The subject edited on screen.
    await again.getByRole('button', { name: 'Rename the conversation' }).click();
    await staff.getByRole('textbox', { name: 'Subject' }).fill('ITR FY 2025-26: papers');
    await staff.getByRole('button', { name: 'Save', exact: true }).click();
    const renamed = staff.getByRole('region', { name: 'Conversation: ITR FY 2025-26: papers' });
    await renamed.getByRole('heading', { name: 'ITR FY 2025-26: papers' }).waitFor();

    // A mail held for review (its sender not on the thread) released into the conversation.
    const threadId = new URL(staff.url()).searchParams.get('thread') ?? '';
    const [heldRow] = await app.db
      .insert(messagesHeld)
      .values({
        orgId: firm.org.id,
        clientId: client.id,
        threadId,
        fromAddress: 'accounts@bank.test',
        subject: 'Re: Your ITR for FY 2025-26',
        body: 'The interest certificate is attached.',
        reason: 'not_participant',
        attachmentNames: ['scan-of-everything.tiff'],
      })
      .returning({ id: messagesHeld.id });
    // Its file kept as the inbound mail keeps one: stored bytes, named by the held mail.
    const interest = file('interest.pdf', 'interest certificate');
    const storageKey = `${firm.org.id}/${randomUUID()}`;
    await app.storage.put(storageKey, Readable.from(interest.buffer), { contentType: 'application/pdf' });
    await app.db.insert(messageHeldFiles).values({
      orgId: firm.org.id,
      heldId: heldRow?.id ?? '',
      name: interest.name,
      size: interest.buffer.length,
      contentType: 'application/pdf',
      checksumSha256: createHash('sha256').update(interest.buffer).digest('hex'),
      storageKey,
    });
    await staff.goto(`${app.url}/messages`);
    await staff.getByText('1 mail held for review').click();
    const heldItem = staff.getByRole('listitem', { name: 'Held mail from accounts@bank.test' });
    await heldItem.getByRole('combobox', { name: 'Release into' }).waitFor();
    await heldItem.getByRole('list', { name: 'Files' }).getByText('interest.pdf').waitFor();
    await heldItem.getByText('Files not kept: scan-of-everything.tiff').waitFor();
    expect(await cutOff(staff)).toEqual([]);
    await screenshot(staff, 'messages-held-mail');
    await heldItem.getByRole('button', { name: 'Release' }).click();
    await staff.getByText('Released into the conversation with its file').waitFor();
    await expect.poll(() => heldItem.count()).toBe(0);
    const released = staff.getByRole('region', { name: 'Conversation: ITR FY 2025-26: papers' });
    const note = released
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'The interest certificate is attached.' });
    await note.getByText('accounts@bank.test').last().waitFor();
    await note.getByText('Internal note', { exact: true }).first().waitFor();
    // The kept file is the note's own file now, in the client's Messages folder.
    await note.getByText('interest.pdf').first().scrollIntoViewIfNeeded();
    await screenshot(staff, 'messages-held-released');

    expect(staffConsole.errors).toEqual([]);
    expect(phoneConsole.errors).toEqual([]);
    // The whole day of a conversation in one test: over a minute on a loaded machine.
  }, 240_000);
});
