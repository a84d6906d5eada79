import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationPreferences } from '../../src/server/db/schema';
import { notify } from '../../src/server/features/notifications';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
let firm: Awaited<ReturnType<TE2eApp['seedFirm']>>;

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

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function signedIn(member: { sub: string | null }, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await signInWithCookies(context, app, member);
  return { context, ...(await newPage(context)) };
}

const mainScrollTop = (page: Page) => page.locator('#main').evaluate((el) => el.scrollTop);

/** Where an element's top sits inside the scrolling <main>, in pixels from main's top edge. */
const topInMain = (page: Page, id: string) =>
  page.evaluate((target) => {
    const main = document.getElementById('main');
    const el = document.getElementById(target);
    if (!main || !el) return null;
    return {
      top: el.getBoundingClientRect().top - main.getBoundingClientRect().top,
      height: main.clientHeight,
    };
  }, id);

describe('firm settings', () => {
  it('the owner edits the firm profile, uploads a logo and sees it', async () => {
    const { page, console, context } = await signedIn(firm.owner);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Firm settings' }).click();
    await page.getByRole('heading', { name: 'Firm settings', level: 1 }).waitFor();

    await page.getByLabel('Legal name').fill('Mehta and Associates LLP');
    await page.getByLabel('City').fill('Pune');
    await page.getByLabel('Country').click();
    await page.getByRole('option', { name: 'India' }).click();
    await page.getByRole('button', { name: 'Add tax identifier' }).click();
    await page.getByLabel('Identifier 1', { exact: true }).fill('AAAFM1234C');
    await page.getByRole('button', { name: 'Add tax identifier' }).click();
    await page.getByLabel('Kind 2', { exact: true }).click();
    await page.getByRole('option', { name: 'GSTIN' }).click();
    await page.getByLabel('Identifier 2', { exact: true }).fill('27AAAFM1234C1Z5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Firm profile saved').waitFor();

    await page
      .locator('input[type=file][aria-labelledby="logo-label"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const logo = page.getByRole('img', { name: 'Mehta & Associates logo' });
    await logo.waitFor();
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await screenshot(page, 'settings-org');

    // A file that claims to be a PNG but is SVG is refused, with the reason.
    await page.locator('input[type=file][aria-labelledby="logo-label"]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    await page.getByRole('alert').filter({ hasText: 'SVG logos are not accepted' }).waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel('Legal name').inputValue()).toBe('Mehta and Associates LLP');
    await expect
      .poll(() => page.getByLabel('Identifier 2', { exact: true }).inputValue())
      .toBe('27AAAFM1234C1Z5');
    await expect.poll(() => page.getByLabel('Country').textContent()).toContain('India');
    await logo.waitFor();
    expect(console.errors.filter((e) => !/400/.test(e))).toEqual([]);
    await context.close();
  });

  it('follows a section link to its section, and a route change scrolls back to the top', async () => {
    const { page, console, context } = await signedIn(firm.owner, { width: 1280, height: 560 });
    await page.goto(`${app.url}/admin/settings/org`);
    await page.getByRole('heading', { name: 'Firm settings', level: 1 }).waitFor();
    await expect.poll(() => mainScrollTop(page)).toBe(0);
    await screenshot(page, 'settings-org-top');

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Tax identifiers' })
      .click();
    await page.waitForURL(/#tax-identifiers$/);
    await expect.poll(() => mainScrollTop(page)).toBeGreaterThan(0);
    const placed = await topInMain(page, 'tax-identifiers');
    expect(placed?.top).toBeGreaterThanOrEqual(-1);
    expect(placed?.top).toBeLessThan((placed?.height ?? 0) / 2);
    await screenshot(page, 'settings-org-hash');

    // Opening a URL with the hash lands on the section too.
    await page.goto(`${app.url}/admin/settings/org#address`);
    await page.getByRole('heading', { name: 'Address' }).waitFor();
    await expect.poll(async () => (await topInMain(page, 'address'))?.top ?? 999).toBeLessThan(40);
    await expect.poll(() => mainScrollTop(page)).toBeGreaterThan(0);

    // The same screen without the hash, from the sidebar: a route change starts at the top.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Firm settings' }).click();
    await page.waitForURL(`${app.url}/admin/settings/org`);
    await expect.poll(() => mainScrollTop(page)).toBe(0);

    // And another screen starts at the top as well.
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Tax identifiers' })
      .click();
    await expect.poll(() => mainScrollTop(page)).toBeGreaterThan(0);
    await page.getByRole('link', { name: /^Notifications/ }).click();
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await expect.poll(() => mainScrollTop(page)).toBe(0);
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('shows a member without the right "You do not have access", and no sidebar entry', async () => {
    const { page, console, context } = await signedIn(firm.staff);
    await page.goto(`${app.url}/admin/settings/org`);
    await page.getByText('You do not have access').waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Firm settings' }).count()).toBe(0);
    await expect.poll(() => page.getByLabel('Firm name').count()).toBe(0);
    await screenshot(page, 'settings-no-access');
    expect(console.errors).toEqual([]);
    await context.close();
  });
});

describe('notifications', () => {
  it('shows a notification from the service with the bell count; reading it clears the count', async () => {
    const notified = await notify(app.db, {
      orgId: firm.org.id,
      memberIds: [firm.owner.id],
      kind: 'task.assigned',
      title: 'GST return for Acme assigned to you',
      body: 'Due on the 20th',
      link: '/admin/settings/org#tax-identifiers',
    });
    await notify(app.db, {
      orgId: firm.org.id,
      memberIds: [firm.owner.id],
      kind: 'member.joined',
      title: 'Priya joined the firm',
    });
    expect(notified.notificationIds).toHaveLength(1);

    const { page, console, context } = await signedIn(firm.owner);
    await page.goto(`${app.url}/`);
    const bell = page.getByRole('link', { name: 'Notifications, 2 unread' });
    await bell.waitFor();
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('2');
    await bell.click();
    await page.waitForURL(`${app.url}/my-account/notifications`);
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page.getByText('Priya joined the firm').waitFor();
    await screenshot(page, 'notifications');

    // Opening one marks it read and follows its link.
    await page.getByRole('button', { name: /^GST return for Acme assigned to you/ }).click();
    await page.waitForURL(`${app.url}/admin/settings/org#tax-identifiers`);
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();

    await page.getByRole('link', { name: 'Notifications, 1 unread' }).click();
    await page.getByRole('button', { name: 'Mark read: “Priya joined the firm”' }).click();
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('unread-count').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);

    // Preferences: turning email off for a kind is saved at once.
    await page.getByRole('switch', { name: 'Task assigned: email' }).click();
    await expect
      .poll(async () =>
        (
          await app.db
            .select({ email: notificationPreferences.email })
            .from(notificationPreferences)
            .where(eq(notificationPreferences.memberId, firm.owner.id))
        ).map((p) => p.email),
      )
      .toEqual([false]);
    // The screen shows the saved value once its refetch lands, which may trail the database write.
    await expect
      .poll(() => page.getByRole('switch', { name: 'Task assigned: email' }).getAttribute('aria-checked'))
      .toBe('false');
    await screenshot(page, 'notifications-read');
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('marks all read, and the user menu leads to notifications and to my profile', async () => {
    for (const title of ['One', 'Two', 'Three']) {
      await notify(app.db, { orgId: firm.org.id, memberIds: [firm.staff.id], kind: 'reminder.due', title });
    }
    const { page, console, context } = await signedIn(firm.staff, { width: 390, height: 760 });
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: /account menu for Sam Staff/ }).click();
    await page.getByRole('menuitem', { name: 'Notifications' }).click();
    await page.waitForURL(`${app.url}/my-account/notifications`);
    await page.getByRole('link', { name: 'Notifications, 3 unread' }).waitFor();
    await screenshot(page, 'notifications-390');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    await page.getByText('You are all caught up.').waitFor();

    await page.getByRole('button', { name: /account menu for Sam Staff/ }).click();
    await page.getByRole('menuitem', { name: 'My profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'My profile' });
    await dialog.getByLabel('Last name').waitFor();
    await expect.poll(() => dialog.getByLabel('Last name').inputValue()).toBe('Staff');
    await dialog.getByLabel('Picture URL').fill('http://insecure.example/me.png');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter an https:// address of an image').waitFor();
    await dialog.getByLabel('Picture URL').fill('');
    await dialog.getByLabel('Last name').fill('Iyer');
    await dialog.getByLabel('Phone').fill('+91 98765 43210');
    await screenshot(page, 'my-profile');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /account menu for Sam Iyer/ }).waitFor();
    // At 390 px the top-centre toast lies over the header's bell, and a pointer resting on a toast
    // keeps it open: let "Profile saved" go first, as a person would.
    await page.getByText('Profile saved').waitFor({ state: 'detached', timeout: 15_000 });
    // The page stays usable after the dialog (no leftover pointer-events lock from the menu).
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
