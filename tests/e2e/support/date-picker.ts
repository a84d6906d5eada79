import { format, parseISO } from 'date-fns';
import type { Locator, Page } from 'playwright-core';

/** Opens the date picker labelled `label` inside `scope` and picks `day`, moving month by month to it. */
export async function pickDay(page: Page, scope: Locator | Page, label: string, day: string) {
  await scope.getByRole('button', { name: label, exact: true }).click();
  const calendar = page.locator('[data-radix-popper-content-wrapper]').last();
  const name = new RegExp(format(parseISO(day), 'MMMM do, yyyy'));
  for (let i = 0; i < 14 && !(await calendar.getByRole('button', { name }).isVisible()); i++) {
    await calendar.getByRole('button', { name: /next month/i }).click();
  }
  await calendar.getByRole('button', { name }).click();
}
