import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clients, timesheetTimers } from '../../src/server/db/schema';
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
  firm = await app.seedFirm('Kapoor & Co');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('project templates and recurring projects', () => {
  it('builds a template, links it to a service, engages a client and works the generated project', async () => {
    const [client] = await app.db
      .insert(clients)
      .values({ orgId: firm.org.id, name: 'Ravi Kapoor', code: 'KAP-01' })
      .returning();
    if (!client) throw new Error('client not seeded');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // A template with two tasks, the second moved above the first from the keyboard.
    await page.goto(`${app.url}/admin`);
    await page
      .getByRole('main')
      .getByRole('link', { name: /^Project templates/ })
      .click();
    await page.waitForURL(`${app.url}/admin/templates/projects`);
    await page.getByText('No project templates yet').waitFor();
    await page.getByRole('button', { name: 'New template' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New project template' });
    await dialog.getByLabel('Name').fill('Monthly GST');
    await dialog.getByLabel('Hours budget').fill('10');
    await dialog.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL(/\/admin\/templates\/projects\/[0-9a-f-]{36}$/);
    await page.getByText('No tasks yet').waitFor();

    const addTask = async (title: string, offset: string, checklist: string, budget = '') => {
      await page.getByRole('button', { name: 'Add task' }).click();
      const form = page.getByRole('dialog', { name: 'Add a task' });
      await form.getByLabel('Title').fill(title);
      await form.getByLabel(/Due, in days/).fill(offset);
      await form.getByLabel('Checklist').fill(checklist);
      await form.getByLabel('Hours budget').fill(budget);
      await form.getByRole('button', { name: 'Add task' }).click();
      await form.waitFor({ state: 'hidden' });
    };
    await addTask('File the return', '20', 'Upload JSON', '1:30');
    // An empty title is refused in the form.
    await page.getByRole('button', { name: 'Add task' }).click();
    const empty = page.getByRole('dialog', { name: 'Add a task' });
    await empty.getByRole('button', { name: 'Add task' }).click();
    await empty.getByText('Enter the task title').waitFor();
    await empty.getByRole('button', { name: 'Cancel' }).click();
    await addTask('Collect invoices', '-2', 'Sales\nPurchases');
    const blueprints = page.getByTestId('blueprint');
    await expect.poll(() => blueprints.count()).toBe(2);
    await page.getByRole('button', { name: 'Move Collect invoices up' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await blueprints.first().textContent()) ?? '')
      .toContain('Collect invoices');
    await expect.poll(() => blueprints.first().textContent()).toContain('2 days before the period ends');
    await expect.poll(() => blueprints.last().textContent()).toContain('1:30 h budget');
    await screenshot(page, 'projects-template');

    // A monthly service using the template.
    await page.goto(`${app.url}/admin/services`);
    await page.getByRole('button', { name: 'New service' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'New service' });
    await drawer.getByLabel('Name').fill('GST return');
    await drawer.getByLabel(/^Code/).fill('GST');
    await drawer.getByRole('switch', { name: /falls due on a set day/ }).click();
    await drawer.getByLabel('Day of the month').fill('20');
    await drawer.getByLabel('Months after the period').fill('1');
    await drawer.getByRole('combobox', { name: 'Project template' }).click();
    await page.getByRole('option', { name: 'Monthly GST' }).click();
    await drawer.getByRole('button', { name: 'Create service' }).click();
    await page.getByText('Added the service GST return').waitFor();

    // The client takes the service: its project exists as soon as the engagement is saved.
    await page.goto(`${app.url}/clients/${client.id}/services`);
    await page.getByRole('button', { name: 'Add service' }).first().click();
    const engagement = page.getByRole('dialog', { name: 'Add a service' });
    await engagement.getByRole('combobox', { name: 'Service' }).click();
    await page.getByRole('option', { name: /GST return/ }).click();
    await engagement.getByRole('checkbox', { name: 'Olivia Owner' }).click();
    await engagement.getByRole('button', { name: 'Add service' }).click();
    await page.getByText('Service added').waitFor();

    await page
      .getByRole('navigation', { name: 'Client sections' })
      .getByRole('link', { name: 'Projects' })
      .click();
    await page.waitForURL(`${app.url}/clients/${client.id}/projects`);
    const clientProjects = page.getByRole('table', { name: 'Projects' });
    const month = new Date().toLocaleString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const generated = clientProjects.getByRole('row', { name: new RegExp(`GST return · ${month}`) });
    await generated.waitFor();
    await expect.poll(() => generated.textContent()).toContain('0/2');
    await screenshot(page, 'projects-client-tab');

    // The same project on /projects, from the sidebar.
    await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
    await page.waitForURL(`${app.url}/projects`);
    const all = page.getByRole('table', { name: 'Projects' });
    const row = all.getByRole('row', { name: new RegExp(`GST return · ${month}`) });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('Ravi Kapoor');
    await expect.poll(() => row.textContent()).toContain('Olivia Owner');
    await screenshot(page, 'projects-list');
    await row.click();
    await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);

    // The project: its tasks in the template's order, each linking to the task drawer.
    const tasks = page.getByRole('table', { name: 'Tasks of the project' });
    await tasks.getByRole('link', { name: /Collect invoices/ }).waitFor();
    const links = tasks.getByRole('link');
    await expect.poll(() => links.first().textContent()).toContain('Collect invoices');
    await expect.poll(() => links.first().getAttribute('href')).toMatch(/^\/tasks\?task=[0-9a-f-]{36}$/);
    await page
      .getByRole('list', { name: 'Activity' })
      .getByText(/Created GST return/)
      .waitFor();

    // Its budget comes from the template. An hour and a half from the task's timer uses the task's
    // whole budget; the project's, edited down to 1:45, is then at 86 %.
    const budget = page.getByRole('progressbar', { name: 'Project hours against budget' });
    await expect.poll(() => budget.getAttribute('aria-valuetext')).toBe('0:00 of 10:00 hours');
    const projectUrl = page.url();
    const taskHref = await tasks.getByRole('link', { name: /File the return/ }).getAttribute('href');
    await page.goto(`${app.url}${taskHref}`);
    const taskDrawer = page.getByRole('dialog', { name: 'File the return' });
    await taskDrawer.getByRole('button', { name: 'Start timer' }).click();
    await taskDrawer.getByRole('button', { name: 'Timer running' }).waitFor();
    await app.db
      .update(timesheetTimers)
      .set({ startedAt: new Date(Date.now() - 90 * 60_000 - 5_000) })
      .where(eq(timesheetTimers.memberId, firm.owner.id));
    await page.keyboard.press('Escape');
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Timer running/ })
      .click();
    await page.getByRole('menuitem', { name: 'Stop and record' }).click();
    await page.getByText('Time recorded').waitFor();
    await page.goto(`${app.url}${taskHref}`);
    const taskBudget = page.getByRole('progressbar', { name: 'Task hours against budget' });
    await expect.poll(() => taskBudget.getAttribute('aria-valuetext')).toBe('1:30 of 1:30 hours');
    await screenshot(page, 'projects-task-budget');

    await page.goto(projectUrl);
    await expect.poll(() => budget.getAttribute('aria-valuetext')).toBe('1:30 of 10:00 hours');
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit project' });
    await expect.poll(() => edit.getByLabel('Hours budget').inputValue()).toBe('10:00');
    await edit.getByLabel('Hours budget').fill('1:45');
    await screenshot(page, 'projects-edit-budget');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Project saved').waitFor();
    await expect.poll(() => budget.getAttribute('aria-valuetext')).toBe('1:30 of 1:45 hours');
    await page.getByText('(86%)').waitFor();
    const byTask = page.getByRole('table', { name: 'Budget against actual by task' });
    await expect
      .poll(() => byTask.getByRole('row', { name: /File the return/ }).textContent())
      .toMatch(/1:30.*1:30.*100%/);
    await screenshot(page, 'projects-budget');

    // Change its status: Completed stamps the completed date.
    await page.getByRole('combobox', { name: 'Project status' }).click();
    await page.getByRole('option', { name: 'Completed' }).click();
    await page.getByText('Status changed').waitFor();
    await page
      .getByRole('list', { name: 'Activity' })
      .getByText(/from Scheduled to Completed/)
      .waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await expect.poll(async () => (await timeline.textContent()) ?? '').not.toContain('not yet');
    await screenshot(page, 'projects-detail');

    // The board shows it under Completed.
    await page.goto(`${app.url}/projects?view=board`);
    const done = page.locator('[data-status-column="COMPLETED"]');
    await done.getByRole('link', { name: new RegExp(`GST return · ${month}`) }).waitFor();
    await screenshot(page, 'projects-board');
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
