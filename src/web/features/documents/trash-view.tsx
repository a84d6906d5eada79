import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, EmptyState, Spinner, toast, useFormat } from '@web/ui';
import { FileText, Folder, RotateCcw, Trash2 } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';

/** What was deleted in this tree, restorable until it is removed for good after 30 days. */
export function TrashView({
  clientId,
  onRestored,
}: {
  clientId: string | null;
  onRestored: (folderId: string) => void;
}) {
  const canRestore = useCan('documents.delete');
  const format = useFormat();
  const trash = useQuery(trpc.documents.trash.queryOptions({ clientId }));
  const restore = useMutation(
    trpc.documents.restore.mutationOptions({
      onSuccess: (result) => {
        toast.success('Restored');
        void trash.refetch();
        onRestored(result.folderId);
      },
    }),
  );
  if (!trash.data) {
    return (
      <div className="grid place-items-center p-8">
        <Spinner />
      </div>
    );
  }
  if (trash.data.length === 0) {
    return (
      <EmptyState
        icon={Trash2}
        title="The trash is empty"
        message="Deleted files and folders stay here for 30 days."
      />
    );
  }
  return (
    <section aria-label="Trash" className="rounded-md border border-border">
      <ul className="divide-y divide-border">
        {trash.data.map((row) => (
          <li key={`${row.kind}:${row.id}`} className="flex items-center gap-3 px-3 py-2 text-sm">
            {row.kind === 'folder' ? (
              <Folder aria-hidden="true" className="size-4 text-amber-500" />
            ) : (
              <FileText aria-hidden="true" className="size-4 text-muted-fg" />
            )}
            <span className="min-w-0 flex-1">
              <span className="break-all font-medium">{row.name}</span>
              <span className="block text-xs text-muted-fg">
                Deleted {format.dateTime(row.deletedAt)} · removed for good on {format.date(row.purgeAt)}
                {row.size !== null ? ` · ${format.bytes(row.size)}` : ''}
              </span>
            </span>
            {canRestore ? (
              <Button
                variant="outline"
                size="sm"
                aria-label={`Restore ${row.name}`}
                loading={restore.isPending && restore.variables?.id === row.id}
                onClick={() => restore.mutate({ kind: row.kind, id: row.id })}
              >
                <RotateCcw aria-hidden="true" /> Restore
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
