import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, Button, Card, CardContent, CardHeader, CardTitle, confirm, toast, useFormat } from '@web/ui';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';
import type { TPaymentDetail } from './payment-page';

/**
 * Where a receipt's money went, invoice by invoice (live and taken back). One allocation can be taken
 * back: the invoice is owed that much again and the amount returns to the client's credit.
 */
export function PaymentAllocations({ payment }: { payment: TPaymentDetail }) {
  const format = useFormat();
  const canCollect = useCan('billing.collect');
  const queryClient = useQueryClient();
  const takeBack = useMutation(trpc.billing.payments.reverseAllocation.mutationOptions());
  const ask = async (a: TPaymentDetail['allocations'][number]) => {
    const ok = await confirm({
      title: `Take back ${format.moneyMinor(a.amount)} from ${a.number}?`,
      message: `${a.number} is owed that much again, and the amount returns to ${payment.client.name}'s credit.`,
      confirmLabel: 'Take back',
      danger: true,
    });
    if (!ok) return;
    const done = await takeBack.mutateAsync({ allocationId: a.id }).catch(() => null);
    if (!done) return;
    toast.success(`Took ${format.moneyMinor(a.amount)} back from ${a.number}`);
    await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Allocated to</CardTitle>
      </CardHeader>
      <CardContent>
        {payment.allocations.length === 0 ? (
          <p className="text-sm text-muted-fg">
            Not set against any invoice: all of it is {payment.client.name}'s credit.
          </p>
        ) : (
          <ul aria-label="Allocated to" className="flex flex-col divide-y divide-border text-sm">
            {payment.allocations.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                <Link
                  to="/billing/invoices/$id"
                  params={{ id: a.invoiceId ?? '' }}
                  className="min-w-0 flex-1 font-mono text-primary underline"
                >
                  {a.number}
                </Link>
                <span className="text-muted-fg">{format.date(a.allocatedOn)}</span>
                <span className={a.reversedAt ? 'tabular-nums line-through' : 'tabular-nums'}>
                  {format.moneyMinor(a.amount)}
                </span>
                {a.reversedAt ? (
                  <Badge tone="grey">Taken back</Badge>
                ) : canCollect && !payment.reversedAt ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Take back the ${format.moneyMinor(a.amount)} allocated to ${a.number}`}
                    onClick={() => ask(a)}
                  >
                    Take back
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
