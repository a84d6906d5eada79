import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

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

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

describe('the task drawer and board, more', () => {
  it('attaches files to a task by upload and from the client’s documents, downloads and removes one', async () => {
    const firm = await app.seedFirm('Attach & Co');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'A-1', name: 'Arora Traders' });
    const task = await api.tasks.create.mutate({
      title: 'Prepare March GST return',
      clientId: client.id,
      forClient: true,
    });
    // A file already in the client's documents, to attach from there.
    const root = await api.documents.open.mutate({ clientId: client.id });
    const form = new FormData();
    form.append('file', new Blob(['PAN ABCDE1234F']), 'pan-card.txt');
    await fetch(`${app.url}/api/documents/upload?folderId=${root.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firm.owner.token}` },
      body: form,
    });

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/tasks?task=${task.id}`);
    const drawer = page.getByRole('dialog', { name: 'Prepare March GST return' });
    const section = drawer.getByRole('region', { name: 'Attachments' });
    await section.getByText('No attachments yet.', { exact: false }).waitFor();

    // Two files at once through the picker, each with its progress.
    await section.getByLabel('Files to attach').setInputFiles([
      {
        name: 'sales-register.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('invoice,amount\nINV-1,1000\n'),
      },
      { name: 'purchases.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(200_000, 7) },
    ]);
    const list = section.getByRole('list', { name: 'Attachments' });
    await list.getByText('sales-register.csv').waitFor();
    await list.getByText('purchases.bin').waitFor();
    await expect.poll(() => section.locator('[data-upload-status="done"]').count()).toBe(2);
    await list.getByText(/195 KB · Olivia Owner/).waitFor();

    // From the client's documents.
    await section.getByRole('button', { name: 'Attach existing' }).click();
    const picker = page.getByRole('dialog', { name: 'Attach an existing file' });
    await picker.getByLabel('Search files').fill('pan');
    await picker.getByRole('button', { name: 'Attach pan-card.txt' }).click();
    await page.getByText('File attached').waitFor();
    await page.keyboard.press('Escape');
    await list.getByText('pan-card.txt').waitFor();
    // A client's to-do: each file says whether the client sees it (the Attachments folder is internal).
    const row = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    await row('sales-register.csv').getByText('Internal', { exact: true }).waitFor();
    await row('pan-card.txt').getByText('Internal', { exact: true }).waitFor();
    await screenshot(page, 'task-attachments');
    await page.setViewportSize({ width: 375, height: 800 });
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'task-attachments-phone');
    await page.setViewportSize({ width: 1400, height: 900 });

    // Download gives the bytes back.
    const download = page.waitForEvent('download');
    await list.getByRole('button', { name: 'Download sales-register.csv' }).click();
    expect((await download).suggestedFilename()).toBe('sales-register.csv');

    // Remove only unlinks: the file stays in the client's documents.
    await list.getByRole('button', { name: 'Remove the attachment purchases.bin' }).click();
    await expect.poll(() => list.getByText('purchases.bin').count()).toBe(0);
    const attachments = await api.tasks.attachments.list.query({ taskId: task.id });
    expect(attachments.map((a) => a.name).sort()).toEqual(['pan-card.txt', 'sales-register.csv']);
    const found = await api.documents.search.query({ clientId: client.id, search: 'purchases', limit: 5 });
    expect(found.map((d) => [d.name, d.folderName])).toEqual([['purchases.bin', 'Attachments']]);

    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('mentions a member by typing "@" and choosing with the keyboard', async () => {
    const firm = await app.seedFirm('Mention & Co');
    const api = app.client(firm.owner.token);
    const task = await api.tasks.create.mutate({ title: 'Close the books' });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/tasks?task=${task.id}`);
    const drawer = page.getByRole('dialog', { name: 'Close the books' });
    const box = drawer.getByLabel('New comment');
    await box.click();
    await box.pressSequentially('Please check @');
    const options = page.getByRole('listbox', { name: 'Members to mention' });
    await options.getByRole('option', { name: 'Olivia Owner' }).waitFor();
    await options.getByRole('option', { name: 'Sam Staff' }).waitFor();

    // Typing filters; Escape closes the list and leaves the drawer open.
    await box.pressSequentially('sa');
    await expect.poll(() => options.getByRole('option').count()).toBe(1);
    await screenshot(page, 'task-mention-picker');
    await box.press('Escape');
    await expect.poll(() => options.count()).toBe(0);
    await drawer.waitFor();

    // Back to "@", arrows and Enter pick.
    await box.press('Backspace');
    await box.press('Backspace');
    await options.getByRole('option', { name: 'Olivia Owner' }).waitFor();
    await box.press('ArrowDown');
    await expect
      .poll(() => options.getByRole('option', { name: 'Sam Staff' }).getAttribute('aria-selected'))
      .toBe('true');
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('Please check @Sam Staff ');
    await box.pressSequentially('the ledger');
    await drawer.getByRole('button', { name: 'Comment', exact: true }).click();
    await drawer
      .getByRole('list', { name: 'Comments' })
      .getByText('Please check @Sam Staff the ledger')
      .waitFor();
    const staffApi = app.client(firm.staff.token);
    await expect
      .poll(async () => (await staffApi.notifications.list.query({})).rows.map((n) => n.title))
      .toContain('Olivia Owner mentioned you on “Close the books”');

    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('reorders cards within a board column by menu and by dragging', async () => {
    const firm = await app.seedFirm('Board order & Co');
    const api = app.client(firm.owner.token);
    for (const title of ['Alpha', 'Bravo', 'Charlie']) await api.tasks.create.mutate({ title });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/tasks?view=all&layout=board`);
    const column = page.getByRole('region', { name: 'Scheduled column' });
    const titles = () =>
      column.getByRole('article').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    await expect.poll(titles).toEqual(['Alpha', 'Bravo', 'Charlie']);

    // Keyboard: the card's menu.
    await column.getByRole('button', { name: 'Move Charlie' }).click();
    await page.getByRole('menuitem', { name: 'Move up' }).click();
    await expect.poll(titles).toEqual(['Alpha', 'Charlie', 'Bravo']);
    await column.getByRole('button', { name: 'Move Alpha' }).click();
    await expect
      .poll(() => page.getByRole('menuitem', { name: 'Move up' }).getAttribute('aria-disabled'))
      .toBe('true');
    await page.getByRole('menuitem', { name: 'Move down' }).click();
    await expect.poll(titles).toEqual(['Charlie', 'Alpha', 'Bravo']);

    // Mouse: dropped on a card, it takes that card's place.
    await column
      .getByRole('article', { name: 'Bravo' })
      .dragTo(column.getByRole('article', { name: 'Charlie' }));
    await expect.poll(titles).toEqual(['Bravo', 'Charlie', 'Alpha']);
    await screenshot(page, 'tasks-board-order');

    // It is the firm's order: it survives a reload.
    await page.reload();
    await expect.poll(titles).toEqual(['Bravo', 'Charlie', 'Alpha']);
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
