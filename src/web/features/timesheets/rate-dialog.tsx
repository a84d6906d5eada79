import { parseRate, rateText, type TRateKind } from '@domain/timesheet-rates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  toast,
  useFormat,
} from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';

export type TRateField = { kind: TRateKind; label: string; hint?: string; rate: number | null };
/** Whose rates the dialog edits: a member's cost and billing rates, or a client's or service's. */
export type TRateTarget = { refId: string; name: string; fields: TRateField[] };

/** Sets or clears the hourly rates of one member, client or service; amounts in the firm's currency. */
export function RateDialog({ target, onClose }: { target: TRateTarget | null; onClose: () => void }) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const queryClient = useQueryClient();
  const [texts, setTexts] = useState<string[]>([]);
  const [errors, setErrors] = useState<(string | undefined)[]>([]);
  useEffect(() => {
    setTexts(target?.fields.map((f) => rateText(f.rate, digits)) ?? []);
    setErrors([]);
  }, [target, digits]);
  const set = useMutation(trpc.timesheets.rates.set.mutationOptions());
  if (!target) return <DialogRoot open={false} />;

  const save = async () => {
    const parsed = target.fields.map((_, i) => parseRate(texts[i] ?? '', digits));
    setErrors(parsed.map((p) => ('error' in p ? p.error : undefined)));
    if (parsed.some((p) => 'error' in p)) return;
    try {
      for (const [i, field] of target.fields.entries()) {
        const next = parsed[i];
        if (next && 'rate' in next && next.rate !== field.rate)
          await set.mutateAsync({ kind: field.kind, refId: target.refId, rate: next.rate });
      }
      toast.success(`Rates saved for ${target.name}`);
      onClose();
    } finally {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.timesheets.rates.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.timesheets.teamWeek.queryKey() }),
      ]);
    }
  };

  return (
    <DialogRoot open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent
        title={`Rates for ${target.name}`}
        description={`Per hour, in ${format.currency}. Leave a rate blank to clear it. Approved time keeps the rates it was approved with.`}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="rate-form" loading={set.isPending}>
              Save rates
            </Button>
          </>
        }
      >
        <form
          id="rate-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {target.fields.map((field, i) => (
            <Field
              key={field.kind}
              label={`${field.label} (${format.currency})`}
              hint={field.hint}
              error={errors[i]}
            >
              <Input
                autoFocus={i === 0}
                inputMode="decimal"
                autoComplete="off"
                placeholder={digits ? '1500.00' : '1500'}
                value={texts[i] ?? ''}
                onChange={(e) => setTexts((all) => all.map((t, j) => (j === i ? e.target.value : t)))}
              />
            </Field>
          ))}
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
