import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLog } from '../../src/server/db/schema';
import { signInWithCookies, startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
let firm: Awaited<ReturnType<TE2eApp['seedFirm']>>;
let clientId: string;

const LONG_NAME = 'Venkataraman Krishnamurthy Textile Exporters Private Limited';
const LONG_EMAIL = 'accounts.department@venkataraman-krishnamurthy-exporters.example';
const IPV6 = '2001:0db8:85a3:0000:0000:8a2e:0370:7334';

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  firm = await app.seedFirm('Sharma & Associates');
  const api = app.client(firm.owner.token);
  const group = await api.clientGroups.create.mutate({ name: 'Venkataraman Krishnamurthy Family Holdings' });
  const client = await api.clients.create.mutate({
    code: 'C000001',
    name: LONG_NAME,
    type: 'company',
    groupId: group.id,
    email: LONG_EMAIL,
    phone: '+91 98200 12345',
    tags: ['gst', 'audit', 'exporter', 'priority'],
    status: 'inactive',
  });
  clientId = client.id;
  await api.clients.create.mutate({ code: 'C000002', name: 'Anand Textiles', type: 'company' });
  await api.projects.create.mutate({
    clientId,
    name: 'Statutory audit and tax audit report for the financial year 2025-26 (Form 3CD)',
    dueDate: '2026-09-30',
    ownerId: firm.owner.id,
  });
  await app.db.insert(systemLog).values({
    orgId: firm.org.id,
    actorKind: 'member',
    actorMemberId: firm.owner.id,
    action: 'client.update',
    recordType: 'client',
    recordId: clientId,
    summary: `Changed the email, phone, address, tax identifiers and tags of ${LONG_NAME}`,
    ip: IPV6,
  });
  // Here, not in the documents test: its retry (CI retries once) would have made them twice.
  const root = await api.documents.open.mutate({ clientId: null });
  for (const name of ['Engagement letters', 'Firm policies', 'Templates']) {
    await api.documents.createFolder.mutate({ parentId: root.id, name });
  }
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function signedInPage(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await signInWithCookies(context, app, firm.owner);
  return { context, ...(await newPage(context)) };
}

/**
 * Whether anything in the table is cut: the table wider than its scroll box (columns pushed out of
 * view), or a cell's content wider than the cell.
 */
function cutOff(table: Locator) {
  return table.evaluate((el) => {
    const box = el.parentElement as HTMLElement;
    const cells = [...el.querySelectorAll('th, td')].filter((c) => c.scrollWidth > c.clientWidth + 1);
    return {
      hiddenSideways: box.scrollWidth - box.clientWidth,
      cutCells: cells.map((c) => c.textContent),
    };
  });
}

/** The text of a column's body cells, and whether each is drawn whole inside the table's box. */
function column(table: Locator, header: string) {
  return table.evaluate((el, name) => {
    const heads = [...el.querySelectorAll('thead th')];
    const index = heads.findIndex((th) => th.textContent?.trim() === name);
    const box = (el.parentElement as HTMLElement).getBoundingClientRect();
    return [...el.querySelectorAll('tbody tr')].map((tr) => {
      const cell = (tr as HTMLTableRowElement).cells[index] as HTMLElement;
      const rect = cell.getBoundingClientRect();
      return {
        text: cell.textContent?.trim(),
        inside: rect.left >= box.left && rect.right <= box.right + 0.5,
      };
    });
  }, header);
}

/** A click where a person would click, in the middle of a cell, whatever lies over it. */
async function clickCell(page: Page, cell: Locator, modifiers: ('Control' | 'Meta')[] = []) {
  const box = await cell.boundingBox();
  if (!box) throw new Error('the cell is not on screen');
  for (const key of modifiers) await page.keyboard.down(key);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  for (const key of modifiers) await page.keyboard.up(key);
}

describe('list screens at 1280 px', () => {
  it('clients: every column is whole, the row is a link to the client, and the trail starts at Home', async () => {
    const { page, console, context } = await signedInPage();
    await page.goto(`${app.url}/clients`);
    const table = page.getByRole('table', { name: 'Clients' });
    const link = table.getByRole('link', { name: LONG_NAME });
    await link.waitFor();
    await screenshot(page, 'tables-clients');

    expect(await cutOff(table)).toEqual({ hiddenSideways: 0, cutCells: [] });
    const status = await column(table, 'Status');
    expect(status.map((c) => c.text).sort()).toEqual(['Active', 'Inactive']);
    expect(status.every((c) => c.inside)).toBe(true);

    // The name is a real link, named by the client, and the row is not a focusable <tr>.
    expect(await link.getAttribute('href')).toBe(`/clients/${clientId}`);
    const row = table.getByRole('row', { name: new RegExp(LONG_NAME) });
    expect(await row.getAttribute('tabindex')).toBeNull();

    // The long name is clipped on screen, and shown whole on hover.
    await link.hover();
    await expect.poll(() => link.getAttribute('title')).toBe(LONG_NAME);

    // Ctrl-click on another cell of the row opens the client in a new tab; this one stays.
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      clickCell(page, row.getByRole('cell').filter({ hasText: 'Company' }), ['Control']),
    ]);
    await tab.waitForURL(`${app.url}/clients/${clientId}`);
    expect(page.url()).toBe(`${app.url}/clients`);
    await tab.close();

    // The row's checkbox selects without opening.
    await row.getByRole('checkbox', { name: `Select ${LONG_NAME}` }).click();
    await page.getByText('1 selected').waitFor();
    expect(page.url()).toBe(`${app.url}/clients`);

    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect.poll(() => trail.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    await expect.poll(() => trail.locator('[aria-current="page"]').textContent()).toBe('Clients');

    // A plain click anywhere on the row opens the client.
    await clickCell(page, row.getByRole('cell').filter({ hasText: 'Inactive' }));
    await page.waitForURL(`${app.url}/clients/${clientId}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(LONG_NAME) }).waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('projects: status, due date and owner stay whole beside a long project name', async () => {
    const { page, console, context } = await signedInPage();
    await page.goto(`${app.url}/projects`);
    const table = page.getByRole('table', { name: 'Projects' });
    await table.getByRole('link', { name: /Statutory audit and tax audit report/ }).waitFor();
    await screenshot(page, 'tables-projects');
    expect(await cutOff(table)).toEqual({ hiddenSideways: 0, cutCells: [] });
    expect(await column(table, 'Owner')).toEqual([{ text: 'Olivia Owner', inside: true }]);
    expect((await column(table, 'Status')).every((c) => c.inside)).toBe(true);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Projects').waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('system log: an IPv6 address and a long summary fit, and the row opens its entry by a named button', async () => {
    const { page, console, context } = await signedInPage();
    await page.goto(`${app.url}/admin/systemlog`);
    const table = page.getByRole('table', { name: 'System log' });
    const open = table.getByRole('button', { name: /^Changed the email, phone, address/ });
    await open.waitFor();
    await screenshot(page, 'tables-systemlog');
    expect(await cutOff(table)).toEqual({ hiddenSideways: 0, cutCells: [] });
    const ip = await column(table, 'IP');
    expect(ip.find((c) => c.text === IPV6)?.inside).toBe(true);

    await clickCell(
      page,
      table
        .getByRole('row', { name: /Changed the email/ })
        .getByRole('cell')
        .first(),
    );
    await page.getByRole('dialog', { name: /^Changed the email, phone, address/ }).waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('documents: the count is of the folders listed, and a folder row opens from anywhere on it', async () => {
    const { page, console, context } = await signedInPage();
    await page.goto(`${app.url}/vault/documents`);
    const table = page.getByRole('table', { name: /^Contents of/ });
    await table.getByRole('link', { name: 'Templates' }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await expect.poll(() => pagination.getByText('1–3 of 3').count()).toBe(1);
    await screenshot(page, 'tables-documents');

    const policies = table.getByRole('row', { name: /Firm policies/ });
    await clickCell(page, policies.getByRole('cell').nth(2));
    await page.waitForURL(/\/vault\/documents\/[0-9a-f-]{36}$/);
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Firm policies').waitFor();

    // From the keyboard: the folder's link takes focus and Enter opens it.
    await page.goBack();
    const templates = table.getByRole('link', { name: 'Templates' });
    await templates.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Folder path' }).getByText('Templates').waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('Firm settings has its breadcrumb trail, and the sidebar shows the firm name whole', async () => {
    const { page, console, context } = await signedInPage();
    await page.goto(`${app.url}/admin/settings/org`);
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect.poll(() => trail.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
    await expect.poll(() => trail.locator('[aria-current="page"]').textContent()).toBe('Firm settings');

    const name = page
      .getByRole('navigation', { name: 'Main' })
      .getByText('Sharma & Associates', { exact: true });
    await name.waitFor();
    expect(
      await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight),
    ).toBe(true);
    await screenshot(page, 'tables-settings');
    expect(console.errors).toEqual([]);
    await context.close();
  });

  it('a table wider than its box is a named region a keyboard can scroll; one that fits is not', async () => {
    const { page, console, context } = await signedInPage({ width: 390, height: 800 });
    await page.goto(`${app.url}/projects`);
    const table = page.getByRole('table', { name: 'Projects' });
    await table.getByRole('row').nth(1).waitFor();
    // At a phone's width the columns do not fit: the box scrolls, and Tab reaches it.
    const region = page.getByRole('region', { name: 'Projects' });
    await expect.poll(() => region.getAttribute('tabindex')).toBe('0');
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await screenshot(page, 'tables-region-focus');
    // At 1280 px it fits, and there is no extra stop on the way through the page.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => region.count()).toBe(0);
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
