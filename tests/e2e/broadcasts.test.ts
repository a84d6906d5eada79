import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/domain/days';
import { createFormatter } from '../../src/domain/format';
import { clients, orgs } from '../../src/server/db/schema';
import { readOutbox } from '../../src/server/mail';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { pickDay } from './support/date-picker';
import { cutOff } from './support/fit';

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  // The job queue runs in this server, as in production: the broadcast goes out by itself.
  app = await startApp({ JOBS_ENABLED: 'true', JOBS_POLL_MS: '200' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

// The preview's sandboxed frame refuses the browser suite's own init scripts (support/words.ts runs in
// every frame): that refusal is the sandbox working, not a fault of the page.
const faults = (errors: string[]) =>
  errors.filter((e) => !/40[0134]/.test(e) && !/Blocked script execution in 'about:srcdoc'/.test(e));

describe('broadcasts in the browser', () => {
  it('writes a template, sends a broadcast to the audience, follows its deliveries to the client page', async () => {
    const firm = await app.seedFirm('Kapoor Associates');
    const [mehta] = await app.db
      .insert(clients)
      .values([
        { orgId: firm.org.id, code: 'M-1', name: 'Rakesh Mehta', email: 'rakesh@mehta.test' },
        { orgId: firm.org.id, code: 'S-1', name: 'Sharma Traders', email: 'accounts@sharma.test' },
        { orgId: firm.org.id, code: 'N-1', name: 'No Mail Ltd' },
      ])
      .returning();
    // A firm in India, a browser in New York: every time typed is the firm's (issue 34).
    await app.db
      .update(orgs)
      .set({ country: 'IN', timeZone: 'Asia/Kolkata' })
      .where(eq(orgs.id, firm.org.id));
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      timezoneId: 'America/New_York',
    });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    await page.goto(`${app.url}/admin/templates/broadcasts`);
    await page.getByText('No broadcast templates yet').waitFor();
    await page.getByRole('button', { name: 'New template' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New broadcast template' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Season documents');
    await dialog
      .getByRole('textbox', { name: 'Subject' })
      .fill('{{client_name}}: documents for {{nickname}}');
    await dialog
      .getByRole('textbox', { name: 'Message' })
      .fill('Dear client, please upload your statements. ');
    await dialog.getByRole('combobox', { name: 'Insert a placeholder' }).click();
    await page.getByRole('option', { name: 'Firm name' }).click();
    await dialog.getByRole('button', { name: 'Create template' }).click();
    // A placeholder that does not exist is refused by the shared schema.
    await dialog.getByText('The subject uses a placeholder that does not exist: {{nickname}}').waitFor();
    await dialog
      .getByRole('textbox', { name: 'Subject' })
      .fill('{{client_name}}: documents for {{fiscal_year}}');
    await dialog.getByRole('button', { name: 'Create template' }).click();
    await page.getByText('Template added').waitFor();
    await page.getByRole('table', { name: 'Broadcast templates' }).getByText('Season documents').waitFor();

    await page.goto(`${app.url}/admin/broadcasts`);
    await page.getByText('No broadcasts yet').waitFor();
    await page.getByRole('button', { name: 'New broadcast' }).first().click();
    const compose = page.getByRole('dialog', { name: 'New broadcast' });
    await compose.getByRole('combobox', { name: 'Start from a template' }).click();
    await page.getByRole('option', { name: 'Season documents' }).click();
    await expect.poll(() => compose.getByTestId('audience-count').textContent()).toBe('2 recipients');
    await compose.getByText('Left out, no email address: 1').waitFor();
    await expect
      .poll(() => compose.getByTestId('preview-subject').textContent())
      .toMatch(/^Rakesh Mehta: documents for \d{4}$/);
    // Named for the list by its template; the subject keeps its placeholders for the mail.
    expect(await compose.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Season documents');

    // "Send at" is read on the firm's clock and says so, whatever the browser's zone.
    const tomorrow = addDays(todayIn('Asia/Kolkata'), 1);
    await pickDay(page, compose, 'Send at', tomorrow);
    await compose.getByRole('textbox', { name: 'Time (Asia/Kolkata)' }).fill('09:00');
    await compose.getByText('Asia/Kolkata time').waitFor();
    await screenshot(page, 'broadcast-compose');
    await compose.getByRole('button', { name: 'Schedule' }).click();
    const confirmSchedule = page.getByRole('alertdialog');
    await expect
      .poll(() => confirmSchedule.textContent())
      .toContain(
        `${createFormatter({ country: 'IN', timeZone: 'Asia/Kolkata', currency: 'INR' }).date(tomorrow)}, 9:00`,
      );
    expect(await confirmSchedule.textContent()).toContain('(Asia/Kolkata time)');
    await confirmSchedule.getByRole('button', { name: 'Cancel' }).click();
    await compose.getByRole('button', { name: 'Clear date' }).click();

    await compose.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Sending to 2 recipients').waitFor();

    const drawer = page.getByRole('dialog', { name: 'Season documents' });
    await expect.poll(() => drawer.getByTestId('count-sent').textContent(), { timeout: 15_000 }).toBe('2');
    await drawer.getByText('Completed').waitFor();
    await screenshot(page, 'broadcast-sent');
    // Every column of the deliveries, the server's answer included, is in view at 1280 px.
    await drawer.getByRole('columnheader', { name: "Server's answer" }).waitFor();
    expect(await cutOff(page)).toEqual([]);
    const mails = (await readOutbox(app.config.mail.outboxDir)).filter((m) => m.to === 'rakesh@mehta.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^Rakesh Mehta: documents for \d{4}$/);
    expect(mails[0]?.text).toContain('Kapoor Associates');
    expect(mails[0]?.notes.unsubscribe).toMatch(/\/api\/broadcasts\/unsubscribe\//);
    await page.keyboard.press('Escape');
    // The list names it; the raw "{{client_name}}: …" subject is nowhere in it.
    const list = page.getByRole('table');
    await list.getByText('Season documents').waitFor();
    expect(await list.textContent()).not.toContain('{{');

    await page.goto(`${app.url}/clients/${mehta?.id}`);
    const received = page.getByRole('list', { name: 'Broadcasts received' });
    await received.getByText('Sent').waitFor();
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
