import { parseRate, rateText } from '@domain/timesheet-rates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Field, Input, toast, useFormat } from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';

/** The task's own billing rate, in the task drawer; only for members who see money. */
export function TaskRateField({ taskId }: { taskId: string }) {
  const canRates = useCan('timesheets.rates');
  return canRates ? <TaskRate taskId={taskId} /> : null;
}

function TaskRate({ taskId }: { taskId: string }) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const queryClient = useQueryClient();
  const current = useQuery(trpc.timesheets.rates.task.queryOptions({ taskId }));
  const saved = current.data ? rateText(current.data.rate, digits) : '';
  const [text, setText] = useState(saved);
  const [error, setError] = useState<string>();
  useEffect(() => setText(saved), [saved]);
  const set = useMutation(
    trpc.timesheets.rates.set.mutationOptions({
      onSuccess: (r) => {
        toast.success(
          r.rate === null ? 'Task rate cleared' : `Task rate set to ${format.moneyMinor(r.rate)}`,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.timesheets.rates.task.queryKey({ taskId }) });
      },
    }),
  );
  return (
    <Field
      label={`Billing rate per hour (${format.currency})`}
      hint="Time on this task bills at this rate. Blank: the service's, client's or member's rate."
      error={error}
    >
      <Input
        inputMode="decimal"
        autoComplete="off"
        placeholder="Not set"
        value={text}
        disabled={!current.data || set.isPending}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          const parsed = parseRate(text, digits);
          setError('error' in parsed ? parsed.error : undefined);
          if ('rate' in parsed && parsed.rate !== current.data?.rate)
            set.mutate({ kind: 'task', refId: taskId, rate: parsed.rate });
        }}
      />
    </Field>
  );
}
