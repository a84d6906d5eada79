import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Checkbox, toast } from '@web/ui';
import { trpc } from '../../lib/trpc';

/**
 * Whether files the firm accepts from a client request are shared with the client when they are
 * filed into the client's documents. Saved as it is ticked; it applies to files accepted from then on.
 */
export function RequestFilingSetting({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const current = useQuery(trpc.documents.requestFiling.queryOptions());
  const save = useMutation(
    trpc.documents.setRequestFiling.mutationOptions({
      onSuccess: async (saved) => {
        await queryClient.invalidateQueries({ queryKey: trpc.documents.requestFiling.queryKey() });
        toast.success(
          saved.shareWithClient
            ? 'Accepted request files will be shared with the client'
            : 'Accepted request files will be filed internal',
        );
      },
    }),
  );
  return (
    <div className="flex flex-col gap-1 border-t border-border pt-3">
      <Checkbox
        label="Share files accepted from client requests with the client"
        checked={current.data?.shareWithClient ?? true}
        disabled={!canEdit || current.isPending || save.isPending}
        onCheckedChange={(v) => save.mutate({ shareWithClient: v === true })}
      />
      <p className="pl-6 text-xs text-muted-fg">
        When you accept a file a client sent to a request, it is filed in the client's documents, in a folder
        named for the request. Ticked, the client sees that folder and its files in the portal.
      </p>
    </div>
  );
}
