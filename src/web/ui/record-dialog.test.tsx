// @vitest-environment happy-dom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConfirmDialogHost } from './confirm-dialog';
import { Field } from './field';
import { Input } from './input';
import { RecordDialog, serverFieldErrors } from './record-dialog';
import './test-setup';

const ZGroup = z.object({
  name: z.string().trim().min(1, 'Enter the group name'),
  rule: z.object({ day: z.string() }),
});
type TGroupIn = z.input<typeof ZGroup>;

function Harness({
  values = { name: '', rule: { day: '' } },
  submit,
  onSaved,
}: {
  values?: TGroupIn;
  submit: (values: z.output<typeof ZGroup>) => Promise<unknown>;
  onSaved?: () => void;
}) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <ConfirmDialogHost />
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <RecordDialog
        open={open}
        onOpenChange={setOpen}
        schema={ZGroup}
        values={values}
        submit={submit}
        onSaved={onSaved}
        title={values.name ? `Edit ${values.name}` : 'New group'}
        submitLabel="Save group"
      >
        {(form) => (
          <>
            <Field label="Name" error={form.formState.errors.name?.message} required>
              <Input {...form.register('name')} />
            </Field>
            <Field label="Day" error={form.formState.errors.rule?.day?.message}>
              <Input {...form.register('rule.day')} />
            </Field>
          </>
        )}
      </RecordDialog>
    </>
  );
}

const refusal = (fieldErrors: Record<string, string[]>) =>
  Object.assign(new Error('Refused'), { data: { code: 'CONFLICT', fieldErrors } });

describe('RecordDialog', () => {
  it('starts from the record, checks the schema, sends the parsed values and closes on a save', async () => {
    const submit = vi.fn(async () => ({ id: 'g1' }));
    const onSaved = vi.fn();
    render(
      <Harness values={{ name: 'Mehta family', rule: { day: '' } }} submit={submit} onSaved={onSaved} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Mehta family' });
    const name = screen.getByRole('textbox', { name: /Name/ });
    expect(name).toHaveValue('Mehta family');
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));
    expect(await screen.findByText('Enter the group name')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
    await userEvent.type(name, '  Shah group ');
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(submit).toHaveBeenCalledWith({ name: 'Shah group', rule: { day: '' } });
    expect(onSaved).toHaveBeenCalledWith({ id: 'g1' }, { name: 'Shah group', rule: { day: '' } });
    // No question on the way out: what was changed is saved.
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it("puts the server's refusals on their fields, nested ones too, and stays open", async () => {
    const submit = vi.fn(async () => {
      throw refusal({ name: ['Another group is already called Shah'], 'rule.day': ['Day must be 1 to 31'] });
    });
    render(<Harness submit={submit} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /Name/ }), 'Shah');
    await userEvent.click(screen.getByRole('button', { name: 'Save group' }));
    const name = screen.getByRole('textbox', { name: /Name/ });
    await waitFor(() => expect(name).toHaveAccessibleDescription('Another group is already called Shah'));
    expect(name).toHaveFocus();
    expect(screen.getByRole('textbox', { name: /Day/ })).toHaveAccessibleDescription('Day must be 1 to 31');
    expect(screen.getByRole('dialog', { name: 'New group' })).toBeInTheDocument();
  });

  it('asks before closing over unsaved changes, and keeps them on "Keep editing"', async () => {
    render(<Harness submit={async () => null} />);
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await userEvent.type(name, 'Half typed');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('Half typed');

    await userEvent.keyboard('{Escape}');
    await screen.findByRole('alertdialog', { name: 'Discard changes?' });
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Opened again, it starts from the record, not from what was discarded.
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('textbox', { name: /Name/ })).toHaveValue('');
  });

  it('closes at once when nothing was changed', async () => {
    render(<Harness submit={async () => null} />);
    await screen.findByRole('dialog', { name: 'New group' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

describe('serverFieldErrors', () => {
  it("takes each field's first message, and nothing from other errors", () => {
    expect(serverFieldErrors(refusal({ code: ['Taken', 'Also'] }))).toEqual({ code: 'Taken' });
    expect(serverFieldErrors(new Error('Network Error'))).toEqual({});
    expect(serverFieldErrors(null)).toEqual({});
  });
});
