import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInWithCookies, startApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: Awaited<ReturnType<typeof startApp>>;
let browser: Browser;
let firm: Awaited<ReturnType<typeof app.seedFirm>>;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
// A firm of its own for each attempt: CI retries a failed test once, and the retry starts from a
// clean firm, not from what the failed attempt left in it.
beforeEach(async () => {
  firm = await app.seedFirm('Mehta & Associates');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function pageAs(member: { sub: string | null }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  await signInWithCookies(context, app, member);
  return { context, ...(await newPage(context)) };
}

describe('admin area', () => {
  it('the owner creates a custom role in the matrix, then finds it in the system log and exports', async () => {
    const { page, console, context } = await pageAs(firm.owner);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`${app.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    for (const name of ['Roles', 'System log', 'Firm settings']) {
      await expect
        .poll(() =>
          page
            .getByRole('main')
            .getByRole('link', { name: new RegExp(`^${name}`) })
            .count(),
        )
        .toBe(1);
    }
    await screenshot(page, 'admin-index');

    await page.getByRole('link', { name: /^Roles/ }).click();
    await page.waitForURL(`${app.url}/admin/roles`);
    const table = page.getByRole('table', { name: 'Roles' });
    await table.getByRole('row', { name: /Owner/ }).waitFor();

    await page.getByRole('button', { name: 'New role' }).click();
    const editor = page.getByRole('dialog', { name: 'New role' });
    await editor.getByLabel('Name').fill('Reviewer');
    await editor.getByLabel('Description').fill('Reviews work before it goes out');
    await editor.getByRole('checkbox', { name: 'Clients: view', exact: true }).click();
    await editor.getByRole('checkbox', { name: 'Tasks: all', exact: true }).click();
    // Keyboard: focus the next cell and toggle it with Space.
    await editor.getByRole('checkbox', { name: 'Reports: view', exact: true }).focus();
    await page.keyboard.press('Space');
    await editor.getByRole('checkbox', { name: 'Approve leaves' }).click();
    await editor.getByRole('switch', { name: 'Assigned clients only' }).click();
    await expect
      .poll(() =>
        editor.getByRole('checkbox', { name: 'Tasks: delete', exact: true }).getAttribute('data-state'),
      )
      .toBe('checked');
    await screenshot(page, 'admin-role-editor');
    await editor.getByRole('button', { name: 'Create role' }).click();
    await page.getByText('Created the role Reviewer').waitFor();
    const row = table.getByRole('row', { name: /Reviewer/ });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('7 of');
    await expect.poll(() => row.textContent()).toContain('Assigned only');
    await screenshot(page, 'admin-roles');

    // The Owner role opens read-only, with why.
    await table.getByRole('row', { name: /^Owner/ }).click();
    const owner = page.getByRole('dialog', { name: 'Owner' });
    await owner.getByText('cannot be edited or deleted').waitFor();
    await expect
      .poll(() => owner.getByRole('checkbox', { name: 'Clients: view', exact: true }).isDisabled())
      .toBe(true);
    await page.keyboard.press('Escape');
    await owner.waitFor({ state: 'detached' });

    await page.goto(`${app.url}/admin/systemlog`);
    const log = page.getByRole('table', { name: 'System log' });
    await log.getByRole('row', { name: /Created the role Reviewer/ }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'role.create' }).click();
    await page.waitForURL(/action=role\.create/);
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
    await log.getByRole('row', { name: /Created the role Reviewer/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Created the role Reviewer with 7 rights' });
    await drawer.getByRole('row', { name: /name/ }).waitFor();
    await expect.poll(() => drawer.getByRole('row', { name: /^name/ }).textContent()).toContain('Reviewer');
    await expect.poll(() => drawer.getByText('Olivia Owner').count()).toBe(1);
    await screenshot(page, 'admin-systemlog-drawer');
    await page.keyboard.press('Escape');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^system-log-\d{4}-\d{2}-\d{2}\.csv$/);
    await page.getByText('Export started: your browser saves the file').waitFor();
    await screenshot(page, 'admin-systemlog');
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('a Staff member opening /admin/roles sees the no-access state, and no Admin entry', async () => {
    const { page, console, context } = await pageAs(firm.staff);
    await page.goto(`${app.url}/admin/roles`);
    await page.getByRole('heading', { level: 1, name: 'You do not have access to this page' }).waitFor();
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count())
      .toBe(0);
    await screenshot(page, 'admin-no-access');
    await page.goto(`${app.url}/admin/systemlog`);
    await page.getByRole('heading', { level: 1, name: 'You do not have access to this page' }).waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
