import { DISBURSEMENT_KIND_LABELS, DISBURSEMENT_KINDS } from '@domain/billing/constants';
import {
  parseAmount,
  type TDisbursementFormInput,
  type TDisbursementFormValues,
  ZDisbursementForm,
} from '@domain/billing/wip';
import { todayIn } from '@domain/days';
import { DOCUMENT_UPLOAD_PATH } from '@domain/documents';
import { rateText } from '@domain/timesheet-rates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Field, FormSelect, Input, RecordDialog, toast, useFormat } from '@web/ui';
import { Paperclip, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { staffAuthHeaders } from '../../../lib/auth';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';
import type { TWipDisbursement } from './use-wip';

/**
 * A receipt's file name in the client's Receipts folder: what it was paid for, the name it came
 * with, and a short mark of its own, so two receipts both called "image.jpg" stay two documents
 * (the documents upload makes a same-named file a new version of the old one).
 */
function receiptName(description: string, file: File) {
  const dot = file.name.lastIndexOf('.');
  const ext = dot > 0 ? file.name.slice(dot).slice(0, 10) : '';
  const mark = crypto.getRandomValues(new Uint32Array(1))[0]?.toString(36).slice(0, 6) ?? 'r';
  return `${
    description
      .slice(0, 60)
      .replace(/[\\/:*?"<>|]/g, ' ')
      .trim() || 'Receipt'
  } · ${mark}${ext}`;
}

async function uploadReceipt(file: File, folderId: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', file, name);
  const res = await fetch(`${DOCUMENT_UPLOAD_PATH}?folderId=${encodeURIComponent(folderId)}`, {
    method: 'POST',
    headers: await staffAuthHeaders(),
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as { id?: string; message?: string };
  if (!res.ok || !body.id)
    throw new Error(body.message ?? 'The receipt could not be uploaded. Please try again.');
  return body.id;
}

/** Records a disbursement for a client (or edits an unbilled one), with its receipt. */
export function DisbursementDialog({
  open,
  onOpenChange,
  clientId,
  projects,
  disbursement,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clientId: string;
  projects: { id: string; name: string }[];
  disbursement: TWipDisbursement | null;
}) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const queryClient = useQueryClient();
  const canUpload = useCan('documents.create');
  const create = useMutation(trpc.billing.wip.disbursements.create.mutationOptions());
  const update = useMutation(trpc.billing.wip.disbursements.update.mutationOptions());
  const folder = useMutation(trpc.billing.wip.disbursements.receiptFolder.mutationOptions());
  const [file, setFile] = useState<File | null>(null);
  const [keepReceipt, setKeepReceipt] = useState(true);
  const picker = useRef<HTMLInputElement>(null);
  // The amount is typed in the currency's units and checked with its digits before anything is sent.
  const schema = useMemo(
    () =>
      ZDisbursementForm.superRefine((v, ctx) => {
        const parsed = parseAmount(v.amountText, digits);
        if ('error' in parsed) ctx.addIssue({ code: 'custom', path: ['amountText'], message: parsed.error });
        else if (parsed.amount <= 0)
          ctx.addIssue({ code: 'custom', path: ['amountText'], message: 'Amount must be more than zero' });
      }),
    [digits],
  );
  const values: TDisbursementFormInput = disbursement
    ? {
        spentOn: disbursement.spentOn,
        kind: disbursement.kind,
        description: disbursement.description,
        amountText: rateText(disbursement.amount, digits),
        projectId: disbursement.project?.id ?? null,
        receiptDocumentId: disbursement.receipt?.id ?? null,
      }
    : {
        spentOn: todayIn(format.timeZone),
        kind: 'government_fee',
        description: '',
        amountText: '',
        projectId: null,
        receiptDocumentId: null,
      };
  // Each opening starts without a chosen file, keeping the receipt the disbursement has.
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setKeepReceipt(true);
  }, [open]);
  const submit = async (v: TDisbursementFormValues) => {
    const parsed = parseAmount(v.amountText, digits);
    if ('error' in parsed) throw new Error(parsed.error);
    let receiptDocumentId = keepReceipt ? v.receiptDocumentId : null;
    if (file) {
      try {
        const { folderId } = await folder.mutateAsync({ clientId });
        receiptDocumentId = await uploadReceipt(file, folderId, receiptName(v.description, file));
      } catch (error) {
        // A tRPC refusal has been said by the client's toast; the upload's own words are said here.
        if (!(error as { data?: unknown }).data) toast.error((error as Error).message);
        throw error;
      }
    }
    const payload = {
      spentOn: v.spentOn,
      kind: v.kind,
      description: v.description,
      amount: parsed.amount,
      projectId: v.projectId,
      receiptDocumentId,
    };
    return disbursement
      ? update.mutateAsync({ disbursementId: disbursement.id, ...payload })
      : create.mutateAsync({ clientId, ...payload });
  };
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={schema}
      values={values}
      submit={submit}
      onSaved={async (_, v) => {
        toast.success(disbursement ? 'Disbursement saved' : `Recorded ${v.description}`);
        setFile(null);
        await queryClient.invalidateQueries({ queryKey: trpc.billing.wip.pathKey() });
      }}
      title={disbursement ? 'Edit disbursement' : 'Record a disbursement'}
      description="Paid on the client's behalf: billed at cost, with its receipt."
      submitLabel={disbursement ? 'Save' : 'Record'}
    >
      {(form) => {
        const errors = form.formState.errors;
        const current = keepReceipt ? disbursement?.receipt : null;
        return (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Paid on" error={errors.spentOn?.message} required>
                <Controller
                  control={form.control}
                  name="spentOn"
                  render={({ field }) => (
                    <DatePicker {...field} value={field.value ?? null} clearable={false} />
                  )}
                />
              </Field>
              <Field label="Kind" error={errors.kind?.message} required>
                <FormSelect
                  control={form.control}
                  name="kind"
                  options={DISBURSEMENT_KINDS.map((k) => ({ value: k, label: DISBURSEMENT_KIND_LABELS[k] }))}
                />
              </Field>
            </div>
            <Field label="Description" error={errors.description?.message} required>
              <Input autoFocus placeholder="ROC filing fee" {...form.register('description')} />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Amount"
                hint="What was paid, billed at cost"
                error={errors.amountText?.message}
                required
              >
                <Input inputMode="decimal" placeholder="0.00" {...form.register('amountText')} />
              </Field>
              <Field label="Project" error={errors.projectId?.message}>
                <FormSelect
                  control={form.control}
                  name="projectId"
                  none="No project"
                  options={projects.map((p) => ({ value: p.id, label: p.name }))}
                />
              </Field>
            </div>
            {canUpload ? (
              <Field label="Receipt" hint="Kept in the client's documents, in Receipts">
                <div className="flex flex-wrap items-center gap-2">
                  <input
                    ref={picker}
                    type="file"
                    className="sr-only"
                    tabIndex={-1}
                    aria-hidden="true"
                    accept="application/pdf,image/*"
                    onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                  />
                  <Button type="button" variant="outline" size="sm" onClick={() => picker.current?.click()}>
                    <Paperclip aria-hidden /> {file || current ? 'Replace the receipt' : 'Attach a receipt'}
                  </Button>
                  {file || current ? (
                    <span className="flex min-w-0 items-center gap-1 text-sm">
                      <span className="truncate">{file?.name ?? current?.name}</span>
                      <Button
                        type="button"
                        variant="ghost"
                        size="sm"
                        aria-label="Remove the receipt"
                        onClick={() => {
                          setFile(null);
                          setKeepReceipt(false);
                          if (picker.current) picker.current.value = '';
                        }}
                      >
                        <X aria-hidden />
                      </Button>
                    </span>
                  ) : null}
                </div>
              </Field>
            ) : null}
          </>
        );
      }}
    </RecordDialog>
  );
}
