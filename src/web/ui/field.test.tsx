// @vitest-environment happy-dom
import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Button } from './button';
import { Field } from './field';
import { Input } from './input';
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
});
