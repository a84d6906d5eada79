// @vitest-environment happy-dom
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfirmDialogHost, confirm } from './confirm-dialog';
import './test-setup';

function ask(options: Parameters<typeof confirm>[0]) {
  let answer!: Promise<boolean>;
  act(() => {
    answer = confirm(options);
  });
  return answer;
}

// The dialog's module is fetched with the first confirm() (React.lazy). Loaded up front, so the
// first test's wait (findByRole's 1 s) is for the dialog and not for Vite transforming Radix on a
// busy machine: when that took longer, the unanswered first question stayed queued and every
// later test found it instead of its own.
beforeAll(() => import('./confirm-dialog-view'));

describe('confirm()', () => {
  it('resolves true on the confirm button and closes', async () => {
    render(<ConfirmDialogHost />);
    const answer = ask({
      title: 'Delete client?',
      message: 'This cannot be undone.',
      confirmLabel: 'Delete',
      danger: true,
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete client?' });
    expect(dialog).toHaveAccessibleDescription('This cannot be undone.');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('resolves false on the cancel button', async () => {
    render(<ConfirmDialogHost />);
    const answer = ask({ title: 'Archive project?', cancelLabel: 'Keep it' });
    await screen.findByRole('alertdialog', { name: 'Archive project?' });
    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    await expect(answer).resolves.toBe(false);
  });

  it('resolves false on Escape, with focus starting on Cancel', async () => {
    render(<ConfirmDialogHost />);
    const answer = ask({ title: 'Discard changes?' });
    await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('asks queued questions one after the other', async () => {
    render(<ConfirmDialogHost />);
    const first = ask({ title: 'First?' });
    const second = ask({ title: 'Second?' });
    await screen.findByRole('alertdialog', { name: 'First?' });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(first).resolves.toBe(true);
    await screen.findByRole('alertdialog', { name: 'Second?' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(second).resolves.toBe(false);
  });
});
