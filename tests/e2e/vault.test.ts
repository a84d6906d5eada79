import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../src/server/db/schema';
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

describe('password vault in the browser', () => {
  it('creates an entry with a generated password, reveals it, copies it (cleared after 20 s), and the log shows both', async () => {
    const firm = await app.seedFirm('Vault & Co');
    const api = app.client(firm.owner.token);
    await api.clients.create.mutate({ code: 'M-1', name: 'Rakesh Mehta' });
    await api.vault.create.mutate({ title: 'Office router', url: 'router.local', password: 'admin-admin' });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    // Fake timers that still run in real time, so the 20 s clipboard clearing can be fast-forwarded.
    await page.clock.install();
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Passwords' }).click();
    await page.waitForURL(`${app.url}/vault/passwords`);
    const table = page.getByRole('table', { name: 'Passwords' });
    await table.getByRole('row', { name: /Office router/ }).waitFor();
    // A URL that is not absolute is text, not a link.
    await expect.poll(() => table.getByRole('link', { name: 'router.local' }).count()).toBe(0);
    await table.getByText('router.local').waitFor();

    await page.getByRole('button', { name: 'New password' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New password' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Income tax portal');
    await dialog.getByRole('combobox', { name: 'Client' }).fill('Meh');
    await page.getByRole('option', { name: 'Rakesh Mehta' }).click();
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://www.incometax.gov.in/iec/foportal/');
    await dialog.getByRole('textbox', { name: 'Username' }).fill('ABCDE1234F');
    // Saving without a password names the field.
    await dialog.getByRole('button', { name: 'Save password' }).click();
    await dialog.getByText('Enter the password').waitFor();

    await dialog.getByRole('button', { name: 'Generator options' }).click();
    await dialog.getByRole('spinbutton', { name: 'Length in characters' }).fill('24');
    await dialog.getByRole('checkbox', { name: /Symbols/ }).click();
    await dialog.getByRole('button', { name: 'Generate password' }).click();
    // The generator shows what it made.
    const box = dialog.getByRole('textbox', { name: 'Password', exact: true });
    await expect.poll(() => box.inputValue()).toMatch(/^[A-Za-z0-9]{24}$/);
    const generated = await box.inputValue();
    expect(generated).toMatch(/[A-Z]/);
    expect(generated).toMatch(/[a-z]/);
    expect(generated).toMatch(/[0-9]/);
    await screenshot(page, 'vault-new-entry');
    await dialog.getByRole('button', { name: 'Hide password' }).click();
    await expect.poll(() => dialog.locator('input[type="password"]').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Save password' }).click();
    await page.getByText('Saved “Income tax portal” to the vault').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const row = table.getByRole('row', { name: /Income tax portal/ });
    await row.waitFor();
    await expect
      .poll(() => row.getByRole('link').getAttribute('href'))
      .toBe('https://www.incometax.gov.in/iec/foportal/');
    await expect.poll(() => row.getByRole('link').getAttribute('rel')).toContain('noopener');
    await row.getByText('Rakesh Mehta').waitFor();
    await row.getByText(/by Olivia Owner/).waitFor();
    // The page never received the password until asked.
    expect(await page.content()).not.toContain(generated);

    await row.getByRole('button', { name: 'Reveal password of Income tax portal' }).click();
    await row.getByText(generated).waitFor();
    await screenshot(page, 'vault-revealed');
    await row.getByRole('button', { name: 'Hide password of Income tax portal' }).click();
    await row.getByText(generated).waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'Copy password of Income tax portal' }).click();
    await page.getByText(/copied\. The clipboard clears in 20 seconds/).waitFor();
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await expect.poll(() => clipboard()).toBe(generated);
    await screenshot(page, 'vault-copied');
    await page.clock.fastForward(21_000);
    await expect.poll(clipboard).toBe('');

    // Edit without touching the password: it stays; the dialog says when it last changed.
    await row.getByRole('button', { name: 'Edit Income tax portal' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit password' });
    await edit.getByText(/Password last changed .* by Olivia Owner/).waitFor();
    await edit.getByRole('textbox', { name: 'Tags' }).fill('tax, gov');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Password entry saved').waitFor();
    await edit.waitFor({ state: 'detached' });
    expect((await api.vault.list.query({ tag: 'gov' })).rows.map((r) => r.title)).toEqual([
      'Income tax portal',
    ]);

    // Search finds it by username; the client filter narrows to it.
    await page.getByLabel('Search passwords').fill('abcde1234');
    await page.waitForURL(/search=abcde1234/);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);

    await page.goto(`${app.url}/admin/systemlog`);
    const log = page.getByRole('table', { name: 'System log' });
    await log.getByRole('row', { name: /Copied the password of “Income tax portal”/ }).waitFor();
    await log.getByRole('row', { name: /Revealed the password of “Income tax portal”/ }).waitFor();
    await log.getByRole('row', { name: /Added the password “Income tax portal” of Rakesh Mehta/ }).waitFor();
    await screenshot(page, 'vault-systemlog');
    expect(await page.content()).not.toContain(generated);

    // Embedded mode: the key file was created owner-only in the data directory.
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(app.dataDir, 'vault.key')).mode & 0o777).toBe(0o600);
    }
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('a member without the reveal right sees entries but no reveal or copy buttons', async () => {
    const firm = await app.seedFirm('Vault view only');
    const api = app.client(firm.owner.token);
    await api.vault.create.mutate({ title: 'Firm email', password: 'x-secret-x' });
    await app.db
      .update(roles)
      .set({ permissions: ['vault.view'] })
      .where(eq(roles.id, firm.roles.staff.id));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(context, app, firm.staff);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/vault/passwords`);
    const table = page.getByRole('table', { name: 'Passwords' });
    await table.getByRole('row', { name: /Firm email/ }).waitFor();
    await expect.poll(() => table.getByRole('button', { name: /Reveal password/ }).count()).toBe(0);
    await expect.poll(() => table.getByRole('button', { name: /Copy password/ }).count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'New password' }).count()).toBe(0);
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
