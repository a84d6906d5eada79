// @vitest-environment happy-dom
import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Controller, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Button } from './button';
import { DatePicker } from './date-picker';
import { Field } from './field';
import { Input } from './input';
import { Select } from './select';
import './test-setup';

// A form as a feature writes one: the zod schema's message reaches Field through react-hook-form.
const ZForm = z.object({ email: z.email('Enter a valid email') });
function Form() {
  const { register, handleSubmit, formState } = useForm({ resolver: zodResolver(ZForm) });
  return (
    <form onSubmit={handleSubmit(() => {})}>
      <Field label="Email" error={formState.errors.email?.message} required>
        <Input {...register('email')} />
      </Field>
      <Button type="submit">Save</Button>
    </form>
  );
}

// Controlled widgets go through Controller; the date stays a 'YYYY-MM-DD' string end to end.
const ZTask = z.object({
  dueDate: z.string({ error: 'Pick a due date' }).regex(/^\d{4}-\d{2}-\d{2}$/),
  priority: z.enum(['low', 'high'], { error: 'Choose a priority' }),
});
function TaskForm({ onSave }: { onSave: (v: z.infer<typeof ZTask>) => void }) {
  const { control, handleSubmit, formState } = useForm({ resolver: zodResolver(ZTask) });
  return (
    <form onSubmit={handleSubmit(onSave)}>
      <Field label="Due date" error={formState.errors.dueDate?.message}>
        <Controller control={control} name="dueDate" render={({ field }) => <DatePicker {...field} />} />
      </Field>
      <Field label="Priority" error={formState.errors.priority?.message}>
        <Controller
          control={control}
          name="priority"
          render={({ field }) => (
            <Select
              {...field}
              onValueChange={field.onChange}
              options={[
                { value: 'low', label: 'Low' },
                { value: 'high', label: 'High' },
              ]}
            />
          )}
        />
      </Field>
      <Button type="submit">Save</Button>
    </form>
  );
}

describe('Field', () => {
  it('labels the control and links the hint', () => {
    render(
      <Field label="Client code" hint="Letters and digits">
        <Input />
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Client code' });
    expect(input).toHaveAccessibleDescription('Letters and digits');
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('links the error message and marks the control invalid', () => {
    render(
      <Field label="Email" hint="Used for the portal invite" error="Enter a valid email">
        <Input />
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/Enter a valid email/);
  });

  it('wires a plain DOM control too', () => {
    render(
      <Field label="Country" error="Choose a country">
        <select>
          <option>India</option>
        </select>
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Country' });
    expect(select).toHaveAccessibleDescription(/Choose a country/);
    expect(select).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps an id the control already has', () => {
    render(
      <Field label="Name">
        <Input id="client-name" />
      </Field>,
    );
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('id', 'client-name');
  });

  it("shows a zod message from react-hook-form's register", async () => {
    render(<Form />);
    await userEvent.type(screen.getByRole('textbox', { name: /Email/ }), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const input = await screen.findByRole('textbox', { name: /Email/, description: 'Enter a valid email' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toBeRequired();
  });

  it('wires Controller-driven DatePicker and Select, with zod messages', async () => {
    render(<TaskForm onSave={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Due date' })).toHaveAccessibleDescription(
      'Pick a due date',
    );
    expect(screen.getByRole('combobox', { name: 'Priority' })).toHaveAccessibleDescription(
      'Choose a priority',
    );
  });
});
