import { MAX_BILLING_EMAILS } from '@domain/billing/invoices';
import { ZEmail } from '@domain/client-users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  Field,
  IconButton,
  Input,
  Switch,
  toast,
} from '@web/ui';
import { X } from 'lucide-react';
import { useState } from 'react';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';

type TClientBilling = inferRouterOutputs<AppRouter>['billing']['invoices']['clientBilling'];

/**
 * Who the client's invoices are mailed to (picked from its portal people, or typed), and whether
 * payment reminders are paused for it. Without billing contacts, invoices go to the client's email.
 */
export function BillingContactsCard({ billing }: { billing: TClientBilling }) {
  const canEdit = useCan('billing.collect');
  const queryClient = useQueryClient();
  const [emails, setEmails] = useState(billing.emails);
  const [paused, setPaused] = useState(billing.remindersPaused);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string>();
  const save = useMutation(
    trpc.billing.invoices.setClientBilling.mutationOptions({
      onSuccess: async ({ changed }) => {
        toast.success(changed ? 'Billing contacts saved' : 'Nothing to save: no changes');
        await queryClient.invalidateQueries({ queryKey: trpc.billing.invoices.clientBilling.queryKey() });
      },
    }),
  );
  const dirty =
    paused !== billing.remindersPaused || JSON.stringify(emails) !== JSON.stringify(billing.emails);
  const add = () => {
    const parsed = ZEmail.safeParse(typed);
    if (!parsed.success) return setTypedError(parsed.error.issues[0]?.message);
    if (emails.length >= MAX_BILLING_EMAILS) return setTypedError(`At most ${MAX_BILLING_EMAILS} addresses`);
    setTypedError(undefined);
    setTyped('');
    if (!emails.includes(parsed.data)) setEmails([...emails, parsed.data]);
  };
  const toggle = (email: string, on: boolean) =>
    setEmails(on ? [...emails, email] : emails.filter((e) => e !== email));
  const offered = [...new Set([...billing.portalEmails.map((e) => e.toLowerCase()), ...emails])];
  return (
    <Card>
      <CardHeader>
        <div>
          <CardTitle>Billing contacts</CardTitle>
          <CardDescription>
            {emails.length
              ? 'Invoices are mailed to these addresses.'
              : billing.clientEmail
                ? `None chosen: invoices go to the client's email, ${billing.clientEmail}.`
                : 'None chosen, and the client has no email: add an address to mail invoices.'}
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <fieldset disabled={!canEdit} className="flex flex-col gap-2">
          <legend className="sr-only">Billing contacts</legend>
          {offered.length === 0 ? (
            <p className="text-sm text-muted-fg">No portal people to pick from.</p>
          ) : null}
          {offered.map((email) => (
            <div key={email} className="flex items-center justify-between gap-2">
              <Checkbox
                label={<span className="break-all">{email}</span>}
                checked={emails.includes(email)}
                onCheckedChange={(v) => toggle(email, v === true)}
              />
              {billing.portalEmails.some((p) => p.toLowerCase() === email) ? null : (
                <IconButton aria-label={`Remove ${email}`} size="sm" onClick={() => toggle(email, false)}>
                  <X aria-hidden />
                </IconButton>
              )}
            </div>
          ))}
        </fieldset>
        {canEdit ? (
          <form
            className="flex items-start gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              add();
            }}
          >
            <Field label="Another address" error={typedError} className="flex-1">
              <Input type="email" value={typed} onChange={(e) => setTyped(e.target.value)} />
            </Field>
            <Button type="submit" variant="outline" className="mt-6">
              Add
            </Button>
          </form>
        ) : null}
        <Switch
          label="Pause payment reminders for this client"
          checked={paused}
          disabled={!canEdit}
          onCheckedChange={setPaused}
        />
        {canEdit ? (
          <Button
            className="self-end"
            disabled={!dirty}
            loading={save.isPending}
            onClick={() => save.mutate({ clientId: billing.clientId, emails, remindersPaused: paused })}
          >
            Save
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
