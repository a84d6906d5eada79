import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timesheetTimers } from '../../src/server/db/schema';
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

const MINUTE = 60_000;

describe('the timer in the browser', () => {
  it('starts from a task’s drawer or card, runs in the top bar, stops into the week, and asks for a stopped timer’s end', async () => {
    const firm = await app.seedFirm('Timer & Co');
    const client = await seedClient(app, firm.org.id, { name: 'Kapoor Exports' });
    const api = app.client(firm.owner.token);
    const task = await api.tasks.create.mutate({
      title: 'Reconcile the bank',
      clientId: client.id,
      assigneeIds: [firm.owner.id],
    });

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/tasks?task=${task.id}`);
    const drawer = page.getByRole('dialog', { name: 'Reconcile the bank' });
    await drawer.getByRole('button', { name: 'Start timer' }).click();
    await drawer.getByRole('button', { name: 'Timer running' }).waitFor();
    await screenshot(page, 'timer-running-drawer');
    // The drawer is modal: the top bar is there for the eye, and for the keyboard once it closes.
    await page.keyboard.press('Escape');
    const header = page.getByRole('banner');
    const elapsed = header.getByTestId('timer-elapsed');
    await expect.poll(() => elapsed.textContent()).toMatch(/^0:00:\d\d$/);

    // Five minutes in: what the entry will hold.
    const [timer] = await app.db
      .select()
      .from(timesheetTimers)
      .where(eq(timesheetTimers.memberId, firm.owner.id));
    if (!timer) throw new Error('no timer');
    await app.db
      .update(timesheetTimers)
      .set({ startedAt: new Date(Date.now() - 5 * MINUTE - 10_000) })
      .where(eq(timesheetTimers.id, timer.id));
    // The board: the task's card shows the timer running and stops it; any card starts one.
    await page.goto(`${app.url}/tasks?layout=board`);
    await expect.poll(() => elapsed.textContent()).toMatch(/^0:05:/);
    const card = page.getByRole('article', { name: 'Reconcile the bank' });
    await expect.poll(() => card.getByTestId('card-timer-elapsed').textContent()).toMatch(/^0:05:/);
    await header.getByRole('button', { name: /Timer running/ }).click();
    await screenshot(page, 'timer-menu');
    await page.keyboard.press('Escape');
    await screenshot(page, 'timer-running-card');
    await card.getByRole('button', { name: 'Stop timer for Reconcile the bank' }).click();
    await page.getByText('Time recorded').waitFor();
    await header.getByRole('button', { name: 'Start timer' }).waitFor();
    // Starting from the card neither opens the drawer nor moves the card; the top bar shows it.
    await card.getByRole('button', { name: 'Start timer for Reconcile the bank' }).click();
    await expect.poll(() => elapsed.textContent()).toMatch(/^0:00:\d\d$/);
    await card.getByRole('button', { name: 'Stop timer for Reconcile the bank' }).waitFor();
    expect(page.url()).not.toContain('task=');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await header.getByRole('button', { name: /Timer running/ }).click();
    await page.getByRole('menuitem', { name: 'Discard' }).click();
    await page.getByText('Timer discarded').waitFor();
    await card.getByRole('button', { name: 'Start timer for Reconcile the bank' }).waitFor();

    await page.goto(`${app.url}/my-account/timesheet`);
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Reconcile the bank' })
      .filter({ hasText: '0:05' })
      .waitFor();
    await screenshot(page, 'timer-entry-in-week');

    // A timer the system stopped after 16 hours waits in the top bar for the real end time.
    const started = new Date(Date.now() - 20 * 60 * MINUTE);
    await app.db.insert(timesheetTimers).values({
      orgId: firm.org.id,
      memberId: firm.owner.id,
      startedAt: started,
      stoppedAt: new Date(started.getTime() + 16 * 60 * MINUTE),
      autoStopped: true,
      note: 'Year-end close',
    });
    await page.reload();
    await header.getByRole('button', { name: 'Timer stopped: give the end time' }).click();
    const dialog = page.getByRole('dialog', { name: 'When did you stop work?' });
    await expect
      .poll(() => dialog.getByRole('textbox', { name: /^Time \(/ }).inputValue())
      .toMatch(/^\d\d:\d\d$/);
    // The day in the firm's format, on the date picker, not the browser's "mm/dd/yyyy".
    expect(await dialog.getByRole('button', { name: 'Stopped at' }).textContent()).not.toMatch(/\//);
    await screenshot(page, 'timer-end-time');
    await dialog.getByRole('button', { name: 'Record time' }).click();
    await page.getByText('Time recorded').first().waitFor();
    await expect
      .poll(() => header.getByRole('button', { name: 'Timer stopped: give the end time' }).count())
      .toBe(0);
    const entries = await api.timesheets.timer.current.query();
    expect(entries).toEqual({ running: null, waiting: [] });
    // On a phone the top bar keeps the timer to its icon.
    await page.setViewportSize({ width: 390, height: 800 });
    await header.getByRole('button', { name: 'Start timer' }).waitFor();
    await screenshot(page, 'timer-phone-header');
    expect(console.errors).toEqual([]);
  });
});
