import type { TReportViewKind } from '@domain/reports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogContent,
  DialogFooter,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  Field,
  Input,
  toast,
} from '@web/ui';
import { Bookmark, ChevronDown, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import type { TReportSearch } from './report-search';

const SAVED_KEYS = [
  'from',
  'to',
  'groupId',
  'serviceId',
  'memberId',
  'clientType',
  'clientStatus',
  'tag',
  'sort',
  'direction',
  'view',
  'by',
] as const;

/** The member's own saved views of this report: open one (its filters into the URL), save the current one, remove. */
export function SavedViews({
  report,
  search,
  onApply,
}: {
  report: TReportViewKind;
  search: TReportSearch;
  onApply: (search: TReportSearch) => void;
}) {
  const queryClient = useQueryClient();
  const views = useQuery(trpc.reports.views.list.queryOptions({ report }));
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.reports.views.list.queryKey({ report }) });
  const save = useMutation(
    trpc.reports.views.save.mutationOptions({
      onSuccess: () => {
        toast.success(`Saved the view “${name.trim()}”`);
        setNaming(false);
        setName('');
      },
      onSettled: refresh,
    }),
  );
  const remove = useMutation(
    trpc.reports.views.delete.mutationOptions({
      onSuccess: () => toast.success('View removed'),
      onSettled: refresh,
    }),
  );
  const current = Object.fromEntries(
    SAVED_KEYS.filter((k) => search[k] !== undefined).map((k) => [k, String(search[k])]),
  );
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline">
            <Bookmark aria-hidden="true" /> Views <ChevronDown aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuLabel>My saved views</DropdownMenuLabel>
          {views.data?.length ? null : <DropdownMenuItem disabled>None saved yet</DropdownMenuItem>}
          {views.data?.map((v) => (
            <DropdownMenuItem key={v.id} onSelect={() => onApply(v.search as TReportSearch)}>
              {v.name}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setNaming(true)}>Save this view…</DropdownMenuItem>
          {views.data?.map((v) => (
            <DropdownMenuItem key={`rm-${v.id}`} onSelect={() => remove.mutate({ viewId: v.id })}>
              <Trash2 aria-hidden /> Remove “{v.name}”
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={naming} onOpenChange={setNaming}>
        <DialogContent
          title="Save this view"
          description="Its filters, period and sort, under a name only you see."
        >
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({ report, name, search: current });
            }}
            className="flex flex-col gap-3"
          >
            <Field label="Name" required>
              <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} autoFocus />
            </Field>
            <DialogFooter>
              <Button type="submit" loading={save.isPending}>
                Save view
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
