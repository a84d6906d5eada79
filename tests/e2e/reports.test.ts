import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/domain/days';
import { projects } from '../../src/server/db/schema';
import { seedClient } from '../../src/server/test/fixtures';
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

const today = todayIn('UTC');
const monthStart = `${today.slice(0, 7)}-01`;
const prevMonthStart = `${addDays(monthStart, -1).slice(0, 7)}-01`;
const monthEnd = addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1);

describe('reports in the browser', () => {
  it('a partner reads the client summary and the compliance grid against the data, and the team on a phone', async () => {
    const firm = await app.seedFirm('Reports & Co');
    const api = app.client(firm.owner.token);
    const a = await seedClient(app, firm.org.id, { name: 'Aarav Traders', code: 'C001' });
    const b = await seedClient(app, firm.org.id, { name: 'Bela Foods', code: 'C002' });
    const gst = await api.services.create.mutate({ name: 'GST return', code: 'GST', frequency: 'monthly' });
    const eng = await api.engagements.create.mutate({
      clientId: a.id,
      serviceId: gst.id,
      startDate: '2026-01-01',
    });
    await api.engagements.create.mutate({ clientId: b.id, serviceId: gst.id, startDate: '2026-01-01' });
    const prevKey = prevMonthStart.slice(0, 7);
    await app.db.insert(projects).values({
      orgId: firm.org.id,
      clientId: a.id,
      serviceId: gst.id,
      clientServiceId: eng.id,
      name: `GST return · ${prevKey}`,
      periodKey: prevKey,
      periodStart: prevMonthStart,
      periodEnd: addDays(monthStart, -1),
      dueDate: addDays(monthStart, 19),
      status: 'COMPLETED',
      completedDate: new Date(`${prevMonthStart}T12:00:00Z`),
    });
    const past = addDays(prevMonthStart, 5);
    await api.tasks.create.mutate({ title: 'Collect invoices', clientId: a.id, dueDate: past });
    await api.tasks.create.mutate({ title: 'Chase bank', clientId: a.id, dueDate: past });
    const done = await api.tasks.create.mutate({ title: 'File return', clientId: a.id, dueDate: today });
    await api.tasks.setStatus.mutate({ taskId: done.id, status: 'COMPLETED' });
    await api.timesheets.create.mutate({ date: today, minutes: 150, clientId: a.id, billable: true });

    // What the screen must show, read from the server's own figures.
    const data = await api.reports.clientSummary.query({ from: prevMonthStart, to: monthEnd });
    const row = data.rows.find((r) => r.id === a.id);
    expect(row).toMatchObject({ overdue: 2, onTimeShare: 100, billableMinutes: 150 });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('link', { name: 'Client summary' }).click();
    const aarav = page.getByRole('row', { name: /Aarav Traders/ });
    await aarav.waitFor();
    await expect
      .poll(() => aarav.getByRole('cell').allTextContents())
      .toEqual(expect.arrayContaining(['2', '100%', '2.5 / 0', '1 / 1']));
    await page.getByRole('figure', { name: /Tasks by status/ }).waitFor();
    await screenshot(page, 'reports-client-summary');

    // The URL carries the sort; reloading keeps it.
    await page.getByRole('button', { name: 'Overdue' }).click();
    await page.waitForURL(/sort=overdue/);

    await page.goto(
      `${app.url}/reports/services/summary?view=grid&serviceId=${gst.id}&from=${prevMonthStart}&to=${monthEnd}`,
    );
    await page.getByRole('link', { name: /^Filed: Aarav Traders, / }).waitFor();
    await expect
      .poll(() => page.locator('.sr-only', { hasText: /^Not started: Bela Foods, / }).count())
      .toBe(2);
    await screenshot(page, 'reports-compliance-grid');

    const phone = await browser.newContext({ viewport: { width: 375, height: 740 } });
    await signInWithCookies(phone, app, firm.owner);
    const { page: small, console: smallConsole } = await newPage(phone);
    await small.goto(`${app.url}/reports/team/summary`);
    await small.getByRole('heading', { name: 'Load per day, the next four weeks' }).waitFor();
    await small
      .getByRole('row', { name: /Olivia Owner/ })
      .first()
      .waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(small, 'reports-team-phone');
    // Closing waits for the screens' audits, so none is left running when the browser closes.
    await page.close();
    await small.close();
    expect([...console.errors, ...smallConsole.errors]).toEqual([]);
  });
});
