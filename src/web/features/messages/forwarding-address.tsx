import { useQuery } from '@tanstack/react-query';
import { Button, toast } from '@web/ui';
import { Copy } from 'lucide-react';
import { trpc } from '../../lib/trpc';

/** The client's forwarding address: forward or BCC a mail to it to file it here (when inbound mail is on). */
export function ForwardingAddress({ clientId }: { clientId: string }) {
  const { data } = useQuery(trpc.messages.forwardingAddress.queryOptions({ clientId }));
  if (!data?.address) return null;
  const address = data.address;
  return (
    <p className="flex min-w-0 flex-wrap items-center gap-2 text-xs text-muted-fg">
      <span>Forward or BCC mail to file it here:</span>
      <code className="min-w-0 truncate rounded bg-muted px-1.5 py-0.5 text-fg">{address}</code>
      <Button
        size="sm"
        variant="ghost"
        aria-label="Copy the forwarding address"
        onClick={() =>
          void navigator.clipboard.writeText(address).then(
            () => toast.success('Copied'),
            () => toast.error('Could not copy'),
          )
        }
      >
        <Copy aria-hidden />
      </Button>
    </p>
  );
}
