import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/domain/days';
import { orgs, requests } from '../../src/server/db/schema';
import { sendRequestReminders } from '../../src/server/features/requests';
import { seedPortalUser } from '../../src/server/test/portal';
import { seedPortalClient } from '../../src/server/test/portal-world';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { cutOff } from './support/fit';

// Chasing and the outstanding report in the browser (issue 36, items 5 and 7): the firm sets its
// default schedule in Firm settings; a request past its due date is chased by the job until it
// needs attention; its page shows the reminders sent and the next, and pauses them; the report
// shows it by client, age and sender.

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

describe('chasing client requests in the browser', () => {
  it('firm default, reminders sent and paused on the request, the outstanding report', async () => {
    const firm = await app.seedFirm('Sharma & Associates');
    // The chase counts days on the firm's clock: the test's "today" must be the firm's.
    await app.db.update(orgs).set({ timeZone: 'Asia/Kolkata' }).where(eq(orgs.id, firm.org.id));
    const { client } = await seedPortalClient(app, firm, 'Mehta Traders');
    const portalUser = await seedPortalUser(app, { orgId: firm.org.id, clientIds: [client.id] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // The firm's default, in Firm settings.
    await page.goto(`${app.url}/admin/settings/org#requests`);
    const card = page.getByRole('region', { name: 'Client requests' });
    const before = card.getByLabel('Days before the due date');
    await expect.poll(() => before.inputValue()).toBe('7, 1');
    await before.fill('5, 1');
    await card.getByLabel('Needs attention after').fill('2');
    await card.getByRole('button', { name: 'Save reminders' }).click();
    await page.getByText('Request reminders saved').waitFor();
    await card.getByLabel('Days before the due date').fill('0');
    await card.getByRole('button', { name: 'Save reminders' }).click();
    await card.getByText('Days before the due date start at 1').waitFor();
    await card.getByLabel('Days before the due date').fill('5, 1');
    await screenshot(page, 'request-chase-settings');

    // A request sent three weeks ago, due a week ago, chased by the job's passes since.
    const api = app.client(firm.owner.token);
    const made = await api.requests.create.mutate({
      clientId: client.id,
      title: 'Bank statements FY 2025-26',
      dueDate: '2099-01-31',
      recipientIds: [portalUser.user.id],
      sections: [{ title: '', items: [{ key: 'bank', kind: 'file', label: 'Bank statements' }] }],
    });
    const today = todayIn('Asia/Kolkata');
    await app.db
      .update(requests)
      .set({ dueDate: addDays(today, -7), sentAt: new Date(Date.now() - 21 * 86_400_000) })
      .where(eq(requests.id, made.id));
    for (const back of [12, 8, 7]) {
      await sendRequestReminders(app.db, app.config.publicUrl, new Date(Date.now() - back * 86_400_000));
    }
    await app.mailTo(portalUser.user.email);

    await page.goto(`${app.url}/requests/${made.id}`);
    const panel = page.getByRole('region', { name: 'Reminders' });
    await panel.getByText('5 and 1 days before, on the due date, then every 3 days after').waitFor();
    await panel.getByText(/Needs attention since/).waitFor();
    const sent = panel.getByRole('table', { name: 'Reminders sent' });
    await expect.poll(() => sent.getByRole('row').count()).toBe(4);
    await sent.getByText('5 days before the due date').waitFor();
    await sent.getByText('On the due date').waitFor();
    await panel.getByText(/Next reminder on/).waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'request-chase-panel');
    await panel.getByRole('button', { name: 'Pause reminders' }).click();
    await page.getByText('Reminders paused').waitFor();
    await panel.getByText('Paused: no reminders go until they are resumed.').waitFor();
    await panel.getByRole('button', { name: 'Resume reminders' }).waitFor();

    // The report, from the reports index.
    await page.goto(`${app.url}/reports`);
    await page.getByRole('link', { name: 'Requests outstanding' }).click();
    await page.waitForURL(`${app.url}/reports/requests/outstanding`);
    const table = page.getByRole('table', { name: 'Requests outstanding by client' });
    const row = table.getByRole('row', { name: /Mehta Traders/ });
    await row.waitFor();
    await expect
      .poll(() => row.getByRole('cell').allInnerTexts())
      .toEqual(['Mehta Traders', '1', '1', '1', '0', '1', '0', '0', '21 d']);
    await page.getByRole('table', { name: 'Open requests by sender and age since sent' }).waitFor();
    await page.getByRole('button', { name: /Export/ }).waitFor();
    expect(await cutOff(page)).toEqual([]);
    await screenshot(page, 'requests-outstanding-report');
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
