import type { TClientBulk } from '@domain/clients';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ActionMenu,
  Button,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  type TActionMenuItem,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useClientsRefresh } from './use-clients';

/** The bar's actions over the selected clients: each is one request, audited once with the count. */
export function ClientsBulkActions({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const refresh = useClientsRefresh();
  const options = useQuery(trpc.clients.options.queryOptions());
  const [tagging, setTagging] = useState(false);
  const [tag, setTag] = useState('');
  const bulk = useMutation(
    trpc.clients.bulk.mutationOptions({
      onSuccess: async (result) => {
        toast.success(`Updated ${result.affected} client${result.affected === 1 ? '' : 's'}`);
        setTagging(false);
        setTag('');
        onDone();
        await refresh();
      },
    }),
  );
  const run = (action: TClientBulk['action']) => bulk.mutate({ ids, action });
  const menu = (label: string, items: TActionMenuItem<TClientBulk['action']>[]) => (
    <ActionMenu label={label} items={items} disabled={bulk.isPending} onPick={run} />
  );
  return (
    <>
      {menu(
        'Assign member',
        (options.data?.members ?? []).map((m) => ({
          key: m.id,
          label: m.name,
          action: { kind: 'assignMember', memberId: m.id },
        })),
      )}
      {menu('Set group', [
        ...(options.data?.groups ?? []).map((g) => ({
          key: g.id,
          label: g.name,
          action: { kind: 'setGroup' as const, groupId: g.id },
        })),
        { key: 'none', label: 'No group', action: { kind: 'setGroup', groupId: null } },
      ])}
      <Button variant="outline" size="sm" onClick={() => setTagging(true)} disabled={bulk.isPending}>
        Tag
      </Button>
      {menu('Change status', [
        { key: 'active', label: 'Active', action: { kind: 'setStatus', status: 'active' } },
        { key: 'inactive', label: 'Inactive', action: { kind: 'setStatus', status: 'inactive' } },
      ])}
      <DialogRoot open={tagging} onOpenChange={setTagging}>
        <DialogContent
          title={`Tag ${ids.length} client${ids.length === 1 ? '' : 's'}`}
          description="Add a tag to the selected clients, or remove it from them."
          footer={
            <>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button
                variant="outline"
                disabled={!tag.trim()}
                onClick={() => run({ kind: 'removeTag', tag: tag.trim() })}
              >
                Remove tag
              </Button>
              <Button disabled={!tag.trim()} onClick={() => run({ kind: 'addTag', tag: tag.trim() })}>
                Add tag
              </Button>
            </>
          }
        >
          <Field
            label="Tag"
            hint={
              options.data?.tags.length ? `In use: ${options.data.tags.slice(0, 10).join(', ')}` : undefined
            }
          >
            <Input value={tag} maxLength={40} onChange={(e) => setTag(e.target.value)} autoFocus />
          </Field>
        </DialogContent>
      </DialogRoot>
    </>
  );
}
