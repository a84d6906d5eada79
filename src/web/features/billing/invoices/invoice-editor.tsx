import { GST_STATES } from '@domain/billing/gst-states';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Checkbox,
  confirm,
  DatePicker,
  Field,
  Select,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { Save, Send, Stamp, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { trpc } from '../../../lib/trpc';
import type { TInvoiceDetail } from './invoice-page';
import { SendDialog } from './invoice-send-dialog';
import { TotalsTable } from './invoice-totals';
import { editLineOf } from './line-form';
import { LinesEditor } from './lines-editor';
import { useLiveTotals } from './use-live-totals';

const NOT_SET = 'none';

/**
 * A draft being written: its lines with live totals (the server's arithmetic, run here), due date,
 * place of supply, notes and terms; Save, Issue (after a confirmation), Issue and send, Delete.
 */
export function InvoiceEditor({ detail }: { detail: TInvoiceDetail }) {
  const format = useFormat();
  const go = useNavigate();
  const queryClient = useQueryClient();
  const digits = format.currencyDigits;
  const { invoice, taxContext, defaults } = detail;
  const initial = useMemo(
    () => ({
      lines: detail.lines.map((l) => editLineOf(l, digits)),
      dueDate: invoice.dueDate,
      placeOfSupply: invoice.placeOfSupply ?? '',
      zeroRated: invoice.zeroRated,
      notes: invoice.notes,
      terms: invoice.terms,
    }),
    [detail, invoice, digits],
  );
  const [draft, setDraft] = useState(initial);
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const gst = taxContext.regime === 'gst';
  const context = {
    ...taxContext,
    zeroRated: gst && draft.zeroRated,
    intraState: !draft.placeOfSupply || !taxContext.firmState || draft.placeOfSupply === taxContext.firmState,
  };
  const live = useLiveTotals(draft.lines, context, digits, tried);
  const services = useQuery(trpc.billing.invoices.serviceOptions.queryOptions());

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.billing.invoices.get.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.billing.invoices.list.queryKey() });
  };
  const update = useMutation(trpc.billing.invoices.update.mutationOptions());
  const issue = useMutation(trpc.billing.invoices.issue.mutationOptions());
  const remove = useMutation(trpc.billing.invoices.deleteDraft.mutationOptions());

  /** Saves what is typed; false (and the cells marked) when some of it does not parse. */
  const save = async (): Promise<boolean> => {
    setTried(true);
    if (live.invalid) {
      toast.error('Some lines need fixing: see the marked cells');
      return false;
    }
    await update.mutateAsync({
      invoiceId: invoice.id,
      lines: live.values,
      dueDate: draft.dueDate,
      placeOfSupply: gst ? draft.placeOfSupply || null : null,
      zeroRated: gst && draft.zeroRated,
      notes: draft.notes,
      terms: draft.terms,
    });
    return true;
  };
  const onSave = async () => {
    if (await save().catch(() => false)) {
      toast.success('Draft saved');
      await refresh();
    }
  };
  const onIssue = async () => {
    if (dirty && !(await save().catch(() => false))) return;
    const ok = await confirm({
      title: 'Issue this invoice?',
      message: `It takes the next number and can no longer be changed: a correction is a credit note. Total ${format.moneyMinor(live.totals.total)}.`,
      confirmLabel: 'Issue invoice',
    });
    if (!ok) return;
    const issued = await issue.mutateAsync({ invoiceId: invoice.id }).catch(() => null);
    if (issued) {
      toast.success(`Issued ${issued.number}`);
      await refresh();
    }
  };
  const onIssueAndSend = async () => {
    if (dirty && !(await save().catch(() => false))) return;
    setSending(true);
  };
  const onDelete = async () => {
    const ok = await confirm({
      title: 'Delete this draft?',
      message: 'Its lines go with it; any time or fees it billed are back in work in progress.',
      confirmLabel: 'Delete draft',
      danger: true,
    });
    if (!ok) return;
    if (await remove.mutateAsync({ invoiceId: invoice.id }).catch(() => null)) {
      toast.success('Draft deleted');
      await go({ to: '/billing/invoices' });
      await queryClient.invalidateQueries({ queryKey: trpc.billing.invoices.list.queryKey() });
    }
  };
  const busy = update.isPending || issue.isPending || remove.isPending;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-end gap-2">
        {dirty ? <span className="mr-auto text-sm text-muted-fg">Unsaved changes</span> : null}
        <Button variant="ghost" onClick={onDelete} disabled={busy}>
          <Trash2 aria-hidden /> Delete draft
        </Button>
        <Button variant="outline" onClick={onSave} loading={update.isPending} disabled={busy || !dirty}>
          <Save aria-hidden /> Save
        </Button>
        <Button variant="outline" onClick={onIssueAndSend} disabled={busy}>
          <Send aria-hidden /> Issue and send
        </Button>
        <Button onClick={onIssue} loading={issue.isPending} disabled={busy}>
          <Stamp aria-hidden /> Issue
        </Button>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Lines</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {draft.lines.length === 0 ? (
            <p className="text-sm text-muted-fg">No lines yet: add what this invoice bills.</p>
          ) : null}
          <LinesEditor
            lines={draft.lines}
            onChange={(lines) => setDraft({ ...draft, lines })}
            amounts={live.amounts}
            errors={live.errors}
            services={services.data ?? []}
            defaultTaxRateBp={defaults.defaultTaxRateBp}
            taxed={taxContext.regime !== 'none'}
          />
          <TotalsTable totals={live.totals} className="self-end" />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Details</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field label="Due date" hint={`Left empty: ${defaults.dueDays} days after the issue date`}>
            <DatePicker value={draft.dueDate} onChange={(dueDate) => setDraft({ ...draft, dueDate })} />
          </Field>
          {gst ? (
            <Field
              label="Place of supply"
              hint="Decides CGST and SGST (the firm's own state) or IGST (another state)"
            >
              <Select
                value={draft.placeOfSupply || NOT_SET}
                onValueChange={(v) => setDraft({ ...draft, placeOfSupply: v === NOT_SET ? '' : v })}
                options={[
                  { value: NOT_SET, label: "Not given (the firm's state)" },
                  ...GST_STATES.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` })),
                ]}
              />
            </Field>
          ) : null}
          {gst ? (
            <div className="sm:col-span-2">
              <Checkbox
                label="Zero-rated supply (an export of services): taxed at 0%"
                checked={draft.zeroRated}
                onCheckedChange={(v) => setDraft({ ...draft, zeroRated: v === true })}
              />
            </div>
          ) : null}
          <Field label="Notes" hint="Printed on the invoice" className="sm:col-span-2">
            <Textarea
              value={draft.notes}
              maxLength={2000}
              onChange={(e) => setDraft({ ...draft, notes: e.target.value })}
            />
          </Field>
          <Field label="Terms" className="sm:col-span-2">
            <Textarea
              value={draft.terms}
              maxLength={4000}
              onChange={(e) => setDraft({ ...draft, terms: e.target.value })}
            />
          </Field>
        </CardContent>
      </Card>
      <SendDialog open={sending} onOpenChange={setSending} detail={detail} issue onDone={refresh} />
    </div>
  );
}
