import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot, type TConsoleLog } from './support/browser';

// One firm, one database, one day: what each person does lands in front of the next one. The
// per-feature tests seed their world through the API; this one makes all of it on screen, so a fault
// between features (a grant one screen makes and another ignores, a notice nobody receives) shows.

let app: TE2eApp;
let browser: Browser;
// Each attempt gets its own firm: the day signs the owner up, so CI's retry on a shared app failed
// at "Check your email" (the address was taken) and never showed whether the flake was a flake.
beforeEach(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterEach(async () => {
  await browser?.close();
  await app?.close();
});

const PASSWORD = 'Ledger#2026';
const DESK = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 800 };
// Failed calls a flow expects (a 401 before a sign-in completes, Amplify's polling) are not faults.
const faults = (log: TConsoleLog) => log.errors.filter((e) => !/40[0134]/.test(e));

async function person(viewport: { width: number; height: number }) {
  // The firm is in Mumbai: onboarding proposes India from the browser's time zone.
  const context = await browser.newContext({ viewport, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
  return { context, ...(await newPage(context)) };
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Client sections' }).getByRole('link', { name });

async function newClient(page: Page, name: string, team: string[]) {
  await page.getByRole('button', { name: 'New client' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'New client' });
  await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  for (const member of team) {
    await drawer.getByRole('list', { name: 'Team' }).getByRole('checkbox', { name: member }).click();
  }
  await drawer.getByRole('button', { name: 'Create client' }).click();
  await page.waitForURL(/\/clients\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { level: 1, name: new RegExp(name) }).waitFor();
  return page.url();
}

describe('a day in the firm', () => {
  it('the owner sets up the day, a member limited to assigned clients works it, the client answers in the portal, and the owner sees all of it', async () => {
    // ── Morning: Meera opens the firm ────────────────────────────────────────────────────────────
    const meera = await person(DESK);
    const owner = meera.page;
    await owner.goto(`${app.url}/auth/register`);
    await owner.getByLabel('First name').fill('Meera');
    await owner.getByLabel('Last name').fill('Sharma');
    await owner.getByLabel('Work email').fill('meera@sharma.test');
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Create account' }).click();
    await owner.getByRole('heading', { name: 'Check your email' }).waitFor();
    const verify = await meera.context.newPage();
    await verify.goto(`${app.url}${await app.lastLinkPath('meera@sharma.test')}`);
    await verify.getByRole('heading', { name: 'Email verified' }).waitFor();
    await verify.close();
    await owner.waitForURL(`${app.url}/onboarding`, { timeout: 20_000 });
    await owner.getByLabel('Firm name').fill('Sharma & Associates');
    await owner.getByRole('button', { name: 'Create firm' }).click();
    await owner.waitForURL(`${app.url}/`);
    await expect.poll(() => owner.getByRole('heading', { level: 1 }).textContent()).toMatch(/, Meera$/);

    // Two clients: Mehta Traders with Meera on its team, Kapoor Exports with nobody yet.
    await nav(owner, 'Clients').click();
    await owner.waitForURL(`${app.url}/clients`);
    await owner.getByText('No clients yet').waitFor();
    const mehta = await newClient(owner, 'Mehta Traders', ['Meera Sharma']);
    await nav(owner, 'Clients').click();
    await newClient(owner, 'Kapoor Exports', []);
    await nav(owner, 'Clients').click();
    const clients = owner.getByRole('table', { name: 'Clients' });
    await expect.poll(() => clients.getByRole('row').count()).toBe(3);
    await screenshot(owner, 'day-owner-clients');

    // Ravi joins as Staff (assigned clients only) from his invitation, in one step.
    await nav(owner, 'Members').click();
    await owner.getByRole('button', { name: 'Invite member' }).first().click();
    const invite = owner.getByRole('dialog', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill('ravi@sharma.test');
    await invite.getByRole('combobox', { name: 'Role' }).click();
    await owner.getByRole('option', { name: 'Staff' }).click();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('Invitation sent to ravi@sharma.test').waitFor();

    const ravi = await person(DESK);
    const member = ravi.page;
    await member.goto(`${app.url}${await app.lastLinkPath('ravi@sharma.test')}`);
    await member.getByRole('heading', { name: 'Join Sharma & Associates' }).waitFor();
    await member.getByRole('link', { name: 'Create account' }).click();
    await member.getByLabel('First name').fill('Ravi');
    await member.getByLabel('Last name').fill('Kumar');
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.waitForURL(`${app.url}/`);
    await member.getByText('Welcome to Sharma & Associates').waitFor();

    // Meera puts Ravi on Mehta Traders' team and gives him its GST return, due tomorrow.
    await owner.goto(`${mehta}/team`);
    await owner.getByRole('combobox', { name: 'Member' }).click();
    await owner.getByRole('option', { name: 'Ravi Kumar' }).click();
    await owner.getByRole('button', { name: 'Add to team' }).click();
    await owner
      .getByRole('list', { name: 'Team members' })
      .getByRole('paragraph')
      .filter({ hasText: 'Ravi Kumar' })
      .waitFor();
    await section(owner, 'Tasks').click();
    // The toolbar's button; an empty list offers a second one.
    await owner.getByRole('button', { name: 'New task' }).first().click();
    const form = owner.getByRole('dialog', { name: 'New task' });
    await form.getByRole('textbox', { name: 'Title' }).fill('GSTR-3B for November');
    await form.getByRole('button', { name: 'Assignees' }).click();
    await owner.getByRole('menuitemcheckbox', { name: 'Ravi Kumar' }).click();
    await owner.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Create task' }).click();
    const created = owner.getByRole('dialog', { name: 'GSTR-3B for November' });
    await created.waitFor();
    await owner.keyboard.press('Escape');

    // A Form 16 for the client, shared into a new folder: the folder opens to the portal with it.
    await section(owner, 'Documents').click();
    await owner.getByRole('button', { name: 'New folder' }).click();
    const folderDialog = owner.getByRole('dialog', { name: 'New folder' });
    await folderDialog.getByRole('textbox').fill('Form 16');
    await folderDialog.getByRole('button', { name: 'Create folder' }).click();
    await owner.getByRole('link', { name: 'Form 16' }).click();
    await owner.getByRole('table', { name: 'Contents of Form 16' }).waitFor();
    await owner.getByRole('checkbox', { name: 'Share uploads with the portal' }).click();
    await owner.getByTestId('documents-file-input').setInputFiles({
      name: 'Form-16.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 Form 16 for FY 2025-26'),
    });
    await owner
      .getByRole('table', { name: 'Contents of Form 16' })
      .getByRole('row', { name: /Form-16\.pdf/ })
      .getByText('Shared', { exact: true })
      .waitFor();
    await owner
      .getByRole('status', { name: 'Portal visibility' })
      .getByText('The client sees this folder in the portal, with what is shared in it.')
      .waitFor();

    // And the client's accountant, Priya, is invited to the portal.
    await section(owner, 'Portal users').click();
    await owner.getByRole('button', { name: 'Invite to portal' }).click();
    const portalInvite = owner.getByRole('dialog', { name: 'Invite to the portal' });
    await portalInvite.getByLabel('Name').fill('Priya Mehta');
    await portalInvite.getByLabel('Email').fill('priya@mehta.test');
    await portalInvite.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('Invitation sent to priya@mehta.test').waitFor();
    await screenshot(owner, 'day-owner-portal-invited');

    // ── Midday: Ravi sees his client and only his client, and works the return ──────────────────
    await nav(member, 'Clients').click();
    const hisClients = member.getByRole('table', { name: 'Clients' });
    await hisClients.getByRole('row', { name: /Mehta Traders/ }).waitFor();
    await expect.poll(() => hisClients.getByRole('row').count()).toBe(2);
    expect(await hisClients.getByText('Kapoor Exports').count()).toBe(0);
    await nav(member, 'Tasks').click();
    await member
      .getByRole('table', { name: 'Tasks' })
      .getByRole('link', { name: 'GSTR-3B for November' })
      .click();
    const task = member.getByRole('dialog', { name: 'GSTR-3B for November' });
    await task.getByRole('combobox', { name: 'Status' }).click();
    await member.getByRole('option', { name: 'In progress' }).click();
    // The status saves and refreshes every task query; the comment is written once that settled.
    await expect.poll(() => task.getByRole('combobox', { name: 'Status' }).isEnabled()).toBe(true);
    await task.getByRole('combobox', { name: 'Status' }).getByText('In progress').waitFor();
    await task.getByRole('button', { name: 'Mention' }).click();
    await member.getByRole('menuitem', { name: 'Meera Sharma' }).click();
    // Typing goes to the comment only once the menu has closed and handed focus back: on a busy
    // machine the keys otherwise reached the menu's type-ahead and the menu stayed open.
    await member.getByRole('menu', { name: 'Mention' }).waitFor({ state: 'detached' });
    await task.getByLabel('New comment').press('End');
    await task.getByLabel('New comment').pressSequentially('ITC matches 2B, filing tomorrow');
    await expect
      .poll(() => task.getByLabel('New comment').inputValue())
      .toBe('@Meera Sharma ITC matches 2B, filing tomorrow');
    await task.getByRole('button', { name: 'Comment', exact: true }).click();
    await task.getByText('@Meera Sharma ITC matches 2B, filing tomorrow').waitFor();
    await screenshot(member, 'day-member-task');

    // ── Afternoon: Priya, on her phone, accepts, finds the Form 16, sends her bank statement ────
    const priya = await person(PHONE);
    const client = priya.page;
    await client.goto(`${app.url}${await app.lastLinkPath('priya@mehta.test')}`);
    await client.getByRole('heading', { name: 'Welcome, Priya Mehta' }).waitFor();
    await client.getByRole('button', { name: 'Accept invitation' }).click();
    await client.waitForURL(/\/clientportal\/[0-9a-f-]{36}$/);
    await client.getByTestId('portal-firm').getByText('Sharma & Associates').waitFor();
    await client
      .getByRole('navigation', { name: 'Portal sections' })
      .getByRole('link', { name: 'Documents' })
      .click();
    await client.getByRole('link', { name: 'Form 16' }).click();
    await client.getByRole('list', { name: 'Files' }).getByText('Form-16.pdf').waitFor();
    await client.getByLabel('Upload files').setInputFiles({
      name: 'hdfc-november.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 HDFC statement, November'),
    });
    await client.getByRole('list', { name: 'Files' }).getByText('hdfc-november.pdf').waitFor();
    await screenshot(client, 'day-portal-documents');
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // ── Evening: Meera reads what the day brought ───────────────────────────────────────────────
    await owner.goto(`${app.url}/my-account/notifications`);
    await owner.getByText('Ravi Kumar mentioned you on “GSTR-3B for November”').waitFor();
    await owner.getByText('Priya Mehta uploaded “hdfc-november.pdf” for Mehta Traders').waitFor();
    await screenshot(owner, 'day-owner-notifications');
    // The task shows Ravi's work; the file is in the client's folder; the log names each person.
    await owner.goto(`${mehta}/tasks`);
    await owner
      .getByRole('table', { name: 'Tasks' })
      .getByRole('row', { name: /GSTR-3B for November/ })
      .getByText('In progress')
      .waitFor();
    await section(owner, 'Documents').click();
    await owner.getByRole('link', { name: 'Form 16' }).click();
    await owner
      .getByRole('table', { name: 'Contents of Form 16' })
      .getByRole('row', { name: /hdfc-november\.pdf/ })
      .waitFor();
    await owner.goto(`${app.url}/admin/systemlog`);
    // In the firm's own zone, by its current name (the browser calls it Asia/Calcutta).
    await owner.getByText('Times in Asia/Kolkata.', { exact: false }).waitFor();
    const log = owner.getByRole('table', { name: 'System log' });
    await log
      .getByRole('row', { name: /Priya Mehta/ })
      .first()
      .waitFor();
    await log
      .getByRole('row', { name: /Ravi Kumar/ })
      .first()
      .waitFor();
    await screenshot(owner, 'day-owner-system-log');

    for (const who of [meera, ravi, priya] satisfies { console: TConsoleLog; context: BrowserContext }[]) {
      expect(faults(who.console)).toEqual([]);
      await who.context.close();
    }
  }, 240_000);
});
