import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ROLES } from '../../src/domain/permissions';
import { roles } from '../../src/server/db/schema';
import { signedUpUser } from '../../src/server/test/idp-user';
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

const PASSWORD = 'Ledger#2026';
// Failed calls the flow expects (a 401 before sign-in completes, Amplify's polling) are not faults.
const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

describe('team members and invitations in the browser', () => {
  it('the owner invites, a new person registers through the link and joins, the owner changes their role', async () => {
    const firm = await app.seedFirm('Rao & Partners');
    // The seeded firm has Owner and Staff; add Manager as onboarding would.
    const manager = SEEDED_ROLES.find((r) => r.name === 'Manager');
    if (!manager) throw new Error('no Manager role');
    await app.db
      .insert(roles)
      .values({ orgId: firm.org.id, ...manager, permissions: [...manager.permissions] });

    // The owner, signed in, invites from /team/members.
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signInWithCookies(ownerContext, app, firm.owner);
    const { page: owner, console: ownerConsole } = await newPage(ownerContext);
    await owner.goto(`${app.url}/`);
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await owner.waitForURL(`${app.url}/team/members`);
    const table = owner.getByRole('table', { name: 'Members' });
    await table.getByRole('row', { name: /Sam Staff/ }).waitFor();
    await screenshot(owner, 'team-members');
    // The wide table scrolls inside its frame; the page itself never scrolls sideways.
    await expect
      .poll(() => owner.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(1280);

    await owner.getByRole('button', { name: 'Invite member' }).first().click();
    const dialog = owner.getByRole('dialog', { name: 'Invite a member' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Enter an email address').waitFor();
    await dialog.getByLabel('Email').fill('nina@nair.test');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await owner.getByRole('option', { name: 'Staff' }).click();
    await screenshot(owner, 'team-invite-dialog');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('Invitation sent to nina@nair.test').waitFor();
    const invites = owner.getByRole('table', { name: 'Pending invitations' });
    await invites.getByText('nina@nair.test').waitFor();
    await screenshot(owner, 'team-members-invited');

    // The link from the outbox, opened by a new person in another browser.
    const link = await app.lastLinkPath('nina@nair.test');
    expect(link).toMatch(/^\/auth\/invite\/[A-Za-z0-9_-]{43}$/);
    const ninaContext = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const { page: nina, console: ninaConsole } = await newPage(ninaContext);
    await nina.goto(`${app.url}${link}`);
    await nina.getByRole('heading', { name: 'Join Rao & Partners' }).waitFor();
    await nina.getByText('nina@nair.test', { exact: true }).waitFor();
    await nina.getByText('Staff', { exact: true }).waitFor();
    await screenshot(nina, 'team-invite-open');
    await nina.getByRole('link', { name: 'Create account' }).click();
    await nina.waitForURL(/\/auth\/register\?invite=/);
    await expect.poll(() => nina.getByLabel('Work email').inputValue()).toBe('nina@nair.test');
    await nina.getByText('Then join Rao & Partners as Staff.').waitFor();
    await nina.getByLabel('First name').fill('Nina');
    await nina.getByLabel('Last name').fill('Nair');
    await nina.getByLabel('Password').fill(PASSWORD);
    // Another address is refused: the invitation joins only the one it was sent to.
    await nina.getByLabel('Work email').fill('nina@elsewhere.test');
    await nina.getByRole('button', { name: 'Create account' }).click();
    await nina
      .getByText('This invitation is for nina@nair.test. Create the account with that address.')
      .waitFor();
    await screenshot(nina, 'team-register-other-address');
    await nina.getByLabel('Work email').fill('nina@nair.test');
    await nina.getByRole('button', { name: 'Create account' }).click();

    // The invitation proved the mailbox: no verification mail, signed in and in the firm at once.
    await nina.waitForURL(`${app.url}/`);
    await nina.getByText('Welcome to Rao & Partners').waitFor();
    await expect.poll(() => nina.getByRole('heading', { level: 1 }).textContent()).toMatch(/, Nina$/);
    await screenshot(nina, 'team-joined-390');
    expect((await app.mailTo('nina@nair.test')).map((m) => m.subject)).toEqual([
      'Olivia Owner invited you to join Rao & Partners',
    ]);
    expect(await app.mailTo('nina@elsewhere.test')).toEqual([]);
    // Staff may not see the team (on a phone the sidebar is a drawer).
    await nina.getByRole('button', { name: 'Open navigation' }).click();
    await nina.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).waitFor();
    await expect.poll(() => nina.getByRole('link', { name: 'Members' }).count()).toBe(0);
    await nina.keyboard.press('Escape');

    // The owner sees Nina as an active member, the invitation gone.
    await owner.reload();
    const row = table.getByRole('row', { name: /Nina Nair/ });
    await row.getByText('Active').waitFor();
    await row.getByText('Staff').waitFor();
    await expect.poll(() => owner.getByRole('table', { name: 'Pending invitations' }).count()).toBe(0);

    // The owner changes Nina's role.
    await row.getByRole('button', { name: 'Actions for Nina Nair' }).click();
    await owner.getByRole('menuitem', { name: 'Change role' }).click();
    const roleDialog = owner.getByRole('dialog', { name: /Change Nina Nair.s role/ });
    await roleDialog.getByRole('combobox', { name: 'Role' }).click();
    await owner.getByRole('option', { name: 'Manager' }).click();
    await roleDialog.getByRole('button', { name: 'Save role' }).click();
    await owner.getByText('Nina Nair is now Manager').waitFor();
    await row.getByText('Manager').waitFor();

    // The owner resets Nina's two-step sign-in (a lost phone).
    await row.getByRole('button', { name: 'Actions for Nina Nair' }).click();
    await owner.getByRole('menuitem', { name: 'Reset two-step sign-in' }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Reset' }).click();
    await owner.getByText('Nina Nair’s two-step sign-in is reset').waitFor();
    await screenshot(owner, 'team-members-role-changed');

    // Nina's screen follows: as a Manager she sees the team.
    await nina.reload();
    await nina.getByRole('button', { name: 'Open navigation' }).click();
    await nina.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await nina
      .getByRole('table', { name: 'Members' })
      .getByRole('row', { name: /Olivia Owner/ })
      .waitFor();
    await expect.poll(() => nina.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
    await expect.poll(() => nina.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await screenshot(nina, 'team-members-as-manager-390');
    await expect
      .poll(() => nina.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);

    // The system log records both.
    const log = await app.client(firm.owner.token).systemLog.list.query({ pageSize: 50 });
    const actions = log.rows.map((r) => [r.action, r.actorName]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['invite.create', 'Olivia Owner'],
        ['invite.accept', 'Nina Nair'],
        ['member.join', 'Nina Nair'],
        ['member.changeRole', 'Olivia Owner'],
      ]),
    );
    expect(log.rows.find((r) => r.action === 'member.changeRole')?.changes).toEqual({
      role: { from: 'Staff', to: 'Manager' },
    });

    // A spent link says so; a key that is not one of ours is a 404.
    await ownerContext.clearCookies();
    await owner.goto(`${app.url}${link}`);
    await owner.getByRole('heading', { name: 'This invitation was already used' }).waitFor();
    await owner.goto(`${app.url}/auth/invite/not-a-key`);
    await owner.getByText('Page Not Found: /auth/invite/not-a-key', { exact: true }).waitFor();

    expect(faults(ownerConsole.errors)).toEqual([]);
    expect(faults(ninaConsole.errors)).toEqual([]);
    await ownerContext.close();
    await ninaContext.close();
  });
  it('a person who already has an account signs in from the invitation and joins with one click', async () => {
    const firm = await app.seedFirm('Existing & Co');
    const email = 'raj@existing.test';
    await signedUpUser(
      {
        endpoint: `${app.url}/api/idp`,
        clientId: app.config.idp.clientId,
        outboxDir: app.config.mail.outboxDir,
      },
      { email, password: PASSWORD, firstName: 'Raj', lastName: 'Rao' },
    );
    await app.client(firm.owner.token).team.invite.mutate({ email, roleId: firm.roles.staff.id });
    const link = await app.lastLinkPath(email);
    expect(link).toMatch(/^\/auth\/invite\//);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}${link}`);
    await page.getByRole('heading', { name: 'Join Existing & Co' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/login\?invite=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}${link}`);
    await screenshot(page, 'team-invite-signed-in');
    await page.getByRole('button', { name: 'Join Existing & Co' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByText('Welcome to Existing & Co').waitFor();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/, Raj$/);
    // Their account's own verification when they made it, then the invitation: nothing more.
    expect((await app.mailTo(email)).map((m) => m.subject)).toEqual([
      'Verify your email address',
      'Olivia Owner invited you to join Existing & Co',
    ]);
    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
