import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const faults = (errors: string[]) => errors.filter((e) => !/40[0134]/.test(e));

/** Drags a board card onto another column with the mouse (native HTML5 drag and drop). */
async function dragCard(page: Page, title: string, toColumn: string) {
  const card = page.getByRole('article', { name: title });
  const target = page.getByRole('region', { name: `${toColumn} column` });
  await card.dragTo(target);
  await target.getByRole('article', { name: title }).waitFor();
}

describe('tasks in the browser', () => {
  it('quick-adds a task, works it in the drawer and on the board to COMPLETED, and filters by tag', async () => {
    const firm = await app.seedFirm('Kapoor & Associates');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'K-1', name: 'Kapoor Textiles' });
    await api.tasks.create.mutate({ title: 'Audit fieldwork', clientId: client.id, tags: ['audit'] });

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.waitForURL(`${app.url}/tasks`);

    // Quick add in "My tasks": the new task is mine.
    await page.getByLabel('Quick add a task').fill('File GSTR-3B for March');
    await page.getByLabel('Quick add a task').press('Enter');
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.getByRole('row', { name: /File GSTR-3B for March/ }).waitFor();
    await screenshot(page, 'tasks-list');

    // The drawer opens from the row, on ?task={id}.
    await table.getByRole('row', { name: /File GSTR-3B for March/ }).click();
    await page.waitForURL(/[?&]task=[0-9a-f-]{36}/);
    const taskUrl = new URL(page.url());
    const drawer = page.getByRole('dialog', { name: 'File GSTR-3B for March' });
    await drawer.waitFor();

    // Tag it, add a checklist item and tick it, and a comment.
    await drawer.getByRole('textbox', { name: 'Tags' }).fill('gst, monthly');
    await drawer.getByRole('textbox', { name: 'Title' }).click();
    await drawer.getByLabel('New checklist item').fill('Download GSTR-2B');
    await drawer.getByLabel('New checklist item').press('Enter');
    await drawer.getByRole('checkbox', { name: 'Download GSTR-2B' }).waitFor();
    await drawer.getByRole('checkbox', { name: 'Download GSTR-2B' }).click();
    await expect.poll(() => drawer.getByText('1/1 done').count()).toBe(1);
    await drawer.getByLabel('New comment').fill('Waiting for the purchase register');
    await drawer.getByRole('button', { name: 'Comment', exact: true }).click();
    await drawer
      .getByRole('list', { name: 'Comments' })
      .getByText('Waiting for the purchase register')
      .waitFor();
    await screenshot(page, 'tasks-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // The board: drag the card with the mouse through every status to COMPLETED.
    await page.getByRole('button', { name: 'Board' }).click();
    await page.waitForURL(/layout=board/);
    await page
      .getByRole('region', { name: 'Scheduled column' })
      .getByRole('article', { name: 'File GSTR-3B for March' })
      .waitFor();
    await dragCard(page, 'File GSTR-3B for March', 'In Progress');
    await dragCard(page, 'File GSTR-3B for March', 'In Review');
    await screenshot(page, 'tasks-board');
    await dragCard(page, 'File GSTR-3B for March', 'Completed');
    const done = page
      .getByRole('region', { name: 'Completed column' })
      .getByRole('article', { name: 'File GSTR-3B for March' });
    await done.getByText('Completed', { exact: true }).waitFor();
    await expect
      .poll(() => done.locator('[data-status="COMPLETED"]').getAttribute('data-colour'))
      .toBe('green');

    // The keyboard way: the card's "Move to" menu.
    await done.getByRole('button', { name: 'Move File GSTR-3B for March' }).click();
    await page.getByRole('menuitem', { name: 'In Review' }).click();
    await page
      .getByRole('region', { name: 'In Review column' })
      .getByRole('article', { name: 'File GSTR-3B for March' })
      .waitFor();
    await dragCard(page, 'File GSTR-3B for March', 'Completed');

    // The drawer agrees: Completed, with a completed date.
    await page.goto(`${app.url}/tasks${taskUrl.search}`);
    const reopened = page.getByRole('dialog', { name: 'File GSTR-3B for March' });
    await reopened.getByText(/^Completed \d/).waitFor();
    await reopened.locator('[data-status="COMPLETED"]').waitFor();
    await page.keyboard.press('Escape');

    // /tasks/filters/{tag}: only the tagged tasks.
    await page.goto(`${app.url}/tasks/filters/gst`);
    await page.getByRole('heading', { level: 1, name: 'Tasks tagged “gst”' }).waitFor();
    const tagged = page.getByRole('table', { name: 'Tasks' });
    // The task is completed now: open work by default, completed on request.
    await page.getByRole('checkbox', { name: 'Show completed' }).click();
    await page.waitForURL(/[?&]completed=true/);
    await tagged.getByRole('row', { name: /File GSTR-3B for March/ }).waitFor();
    await expect.poll(() => tagged.getByRole('row').count()).toBe(2);
    await expect.poll(() => tagged.getByText('Audit fieldwork').count()).toBe(0);
    await screenshot(page, 'tasks-tag');

    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('creates a task for a client with the full form, mentions a member, and quick-adds a client to-do', async () => {
    const firm = await app.seedFirm('Mehra & Co');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'K-1', name: 'Kapoor Textiles' });
    await api.tasks.create.mutate({ title: 'Audit fieldwork', clientId: client.id, tags: ['audit'] });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);

    // The client's Tasks tab lists its task; the full form creates one for this client.
    await page.goto(`${app.url}/clients/${client.id}/tasks`);
    await page
      .getByRole('table', { name: 'Tasks' })
      .getByRole('row', { name: /Audit fieldwork/ })
      .waitFor();
    await page.getByRole('button', { name: 'New task' }).click();
    const form = page.getByRole('dialog', { name: 'New task' });
    await form.getByRole('button', { name: 'Create task' }).click();
    await form.getByText('Enter a title for the task').waitFor();
    await form.getByRole('textbox', { name: 'Title' }).fill('Bank reconciliation');
    await form.getByRole('textbox', { name: 'Checklist' }).fill('HDFC current account\nICICI savings');
    await screenshot(page, 'tasks-new');
    await form.getByRole('button', { name: 'Create task' }).click();
    const created = page.getByRole('dialog', { name: 'Bank reconciliation' });
    await created.getByRole('checkbox', { name: 'ICICI savings' }).waitFor();
    await expect.poll(() => created.getByRole('link', { name: 'Kapoor Textiles' }).count()).toBe(1);

    // A comment mentioning Sam notifies him.
    await created.getByRole('button', { name: 'Mention' }).click();
    await page.getByRole('menuitem', { name: 'Sam Staff' }).click();
    await created.getByLabel('New comment').press('End');
    await created.getByLabel('New comment').pressSequentially('can you take this?');
    await created.getByRole('button', { name: 'Comment', exact: true }).click();
    await created
      .getByRole('list', { name: 'Comments' })
      .getByText('@Sam Staff can you take this?')
      .waitFor();
    await page.keyboard.press('Escape');
    const staffApi = app.client(firm.staff.token);
    await expect
      .poll(async () => (await staffApi.notifications.list.query({})).rows.map((n) => n.title))
      .toContain('Olivia Owner mentioned you on “Bank reconciliation”');
    await screenshot(page, 'tasks-client-tab');

    // Client to-dos: quick add makes a task for the client to do.
    await page.getByRole('link', { name: 'Client to-dos' }).click();
    await page.waitForURL(/\/client-tasks$/);
    await page.getByLabel('Quick add a task').fill('Send March purchase invoices');
    await page.getByLabel('Quick add a task').press('Enter');
    await page
      .getByRole('table', { name: 'Tasks' })
      .getByRole('row', { name: /Send March purchase invoices/ })
      .waitFor();
    const todo = await api.tasks.list.query({ clientId: client.id, forClient: true });
    expect(todo.rows.map((r) => r.title)).toEqual(['Send March purchase invoices']);

    // The firm's rule: no completing with open checklist items, said plainly.
    await page.goto(`${app.url}/admin/settings/org#work`);
    await page
      .getByRole('switch', { name: 'A task can be completed only when its checklist is done' })
      .click();
    await page.getByText('Tasks now need their checklist done to be completed').waitFor();
    const bank = (await api.tasks.list.query({ search: 'bank' })).rows[0];
    await page.goto(`${app.url}/tasks?task=${bank?.id}`);
    const drawer = page.getByRole('dialog', { name: 'Bank reconciliation' });
    await drawer.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Completed' }).click();
    await page
      .getByText('Finish the checklist before completing this task: 2 of 2 items are still open')
      .waitFor();
    await screenshot(page, 'tasks-checklist-rule');
    expect((await api.tasks.get.query({ taskId: bank?.id ?? '' })).status).toBe('SCHEDULED');

    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });

  it('opens on open work (overdue first), shows completed on request, and names the project on a board card', async () => {
    const firm = await app.seedFirm('Iyer & Rao');
    const api = app.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: 'I-1', name: 'Iyer Foods' });
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const me = [firm.owner.id];
    // Months-old completed work sorts first by due date; it must not be what the list opens on.
    await api.tasks.create.mutate({
      title: 'May GSTR-1',
      dueDate: day(-180),
      status: 'COMPLETED',
      assigneeIds: me,
    });
    await api.tasks.create.mutate({ title: 'Due next week', dueDate: day(7), assigneeIds: me });
    await api.tasks.create.mutate({ title: 'Overdue TDS return', dueDate: day(-3), assigneeIds: me });
    for (const [name, due] of [
      ['GST · Nov 2026', day(10)],
      ['GST · Dec 2026', day(40)],
    ] as const) {
      const project = await api.projects.create.mutate({
        clientId: client.id,
        name,
        dueDate: due,
        memberIds: [],
      });
      await api.tasks.create.mutate({
        title: 'Reconcile with GSTR-2B',
        clientId: client.id,
        projectId: project.id,
        dueDate: due,
        assigneeIds: me,
      });
    }

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await signInWithCookies(context, app, firm.owner);
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/tasks`);
    const table = page.getByRole('table', { name: 'Tasks' });
    const rows = table.getByRole('row');
    await table.getByRole('row', { name: /Overdue TDS return/ }).waitFor();
    await expect.poll(() => rows.count()).toBe(5);
    await expect.poll(() => rows.nth(1).textContent()).toContain('Overdue TDS return');
    await expect.poll(() => rows.nth(1).textContent()).toContain('Overdue');
    await expect.poll(() => rows.nth(2).textContent()).toContain('Due next week');
    expect(await table.getByText('May GSTR-1').count()).toBe(0);
    await screenshot(page, 'tasks-open-first');

    await page.getByRole('checkbox', { name: 'Show completed' }).click();
    await table.getByRole('row', { name: /May GSTR-1/ }).waitFor();
    await expect.poll(() => rows.count()).toBe(6);

    // A row's own status control (the bulk action for one task), without opening the drawer.
    await table.getByRole('button', { name: /^Status of Due next week/ }).click();
    await page.getByRole('menuitem', { name: 'In Progress' }).click();
    await page.getByText('Moved to In Progress').waitFor();
    await expect
      .poll(() => table.getByRole('row', { name: /Due next week/ }).textContent())
      .toContain('In Progress');
    expect(page.url()).not.toContain('task=');

    // The board: the two "Reconcile with GSTR-2B" cards say which period they are.
    await page.goto(`${app.url}/tasks?layout=board`);
    const cards = page
      .getByRole('region', { name: 'Scheduled column' })
      .getByRole('article', { name: 'Reconcile with GSTR-2B' });
    await expect.poll(() => cards.count()).toBe(2);
    await cards.filter({ hasText: 'GST · Nov 2026' }).waitFor();
    await cards.filter({ hasText: 'GST · Dec 2026' }).waitFor();
    await screenshot(page, 'tasks-board-projects');

    // /projects opens on open work too; "All statuses" brings back the completed.
    const done = await api.projects.create.mutate({
      clientId: client.id,
      name: 'Audit · FY 2024',
      dueDate: day(-200),
      memberIds: [],
    });
    await api.projects.setStatus.mutate({ projectId: done.id, status: 'COMPLETED' });
    await page.goto(`${app.url}/projects`);
    const projects = page.getByRole('table', { name: 'Projects' });
    await projects.getByRole('row', { name: /GST · Nov 2026/ }).waitFor();
    await expect.poll(() => projects.getByRole('row').nth(1).textContent()).toContain('GST · Nov 2026');
    expect(await projects.getByText('Audit · FY 2024').count()).toBe(0);
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'All statuses' }).click();
    await page.waitForURL(/[?&]completed=true/);
    await expect.poll(() => projects.getByRole('row').nth(1).textContent()).toContain('Audit · FY 2024');

    expect(faults(console.errors)).toEqual([]);
    await context.close();
  });
});
