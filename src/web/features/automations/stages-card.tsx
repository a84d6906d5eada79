import { MAX_STAGES } from '@domain/automations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, CardContent, CardHeader, CardTitle, IconButton, Input, toast } from '@web/ui';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';

type TRow = { key: string; id: string | null; name: string };

/**
 * A project template's ordered stages (Waiting on client → Preparation → Review → …): projects made
 * from it start in the first, and /projects?view=stages shows them as a board.
 */
export function StagesCard({ templateId, canEdit }: { templateId: string; canEdit: boolean }) {
  const stages = useQuery(trpc.stages.list.queryOptions({ templateId }));
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<TRow[]>([]);
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (stages.data && !dirty) {
      setRows(stages.data.stages.map((s) => ({ key: s.id, id: s.id, name: s.name })));
    }
  }, [stages.data, dirty]);
  const save = useMutation(
    trpc.stages.set.mutationOptions({
      onSuccess: async () => {
        toast.success('Stages saved');
        setDirty(false);
        await queryClient.invalidateQueries({ queryKey: trpc.stages.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.projectTemplates.pathKey() });
      },
    }),
  );
  const edit = (next: TRow[]) => {
    setRows(next);
    setDirty(true);
  };
  const swap = (i: number, j: number) => {
    const next = [...rows];
    const a = next[i];
    const b = next[j];
    if (!a || !b) return;
    next[i] = b;
    next[j] = a;
    edit(next);
  };
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>Stages</CardTitle>
        {canEdit ? (
          <Button
            variant="outline"
            size="sm"
            disabled={rows.length >= MAX_STAGES}
            onClick={() => edit([...rows, { key: crypto.randomUUID(), id: null, name: '' }])}
          >
            <Plus aria-hidden />
            Add stage
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {rows.length === 0 ? (
          <p className="text-sm text-muted-fg">
            No stages. Add them in order (for example Waiting on client, Preparation, Review, Client approval,
            Filed, Billed): its projects start in the first, and rules can move them along.
          </p>
        ) : null}
        <ol className="flex flex-col gap-2">
          {rows.map((row, i) => (
            <li key={row.key} className="flex items-center gap-2">
              <span className="w-6 text-right text-xs text-muted-fg">{i + 1}.</span>
              {canEdit ? (
                <>
                  <Input
                    aria-label={`Stage ${i + 1}`}
                    value={row.name}
                    maxLength={60}
                    onChange={(e) =>
                      edit(rows.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)))
                    }
                  />
                  <IconButton
                    aria-label={`Move ${row.name || 'stage'} up`}
                    disabled={i === 0}
                    onClick={() => swap(i, i - 1)}
                  >
                    <ArrowUp aria-hidden />
                  </IconButton>
                  <IconButton
                    aria-label={`Move ${row.name || 'stage'} down`}
                    disabled={i === rows.length - 1}
                    onClick={() => swap(i, i + 1)}
                  >
                    <ArrowDown aria-hidden />
                  </IconButton>
                  <IconButton
                    aria-label={`Remove ${row.name || 'stage'}`}
                    onClick={() => edit(rows.filter((r) => r.key !== row.key))}
                  >
                    <Trash2 aria-hidden />
                  </IconButton>
                </>
              ) : (
                <span className="text-sm text-fg">{row.name}</span>
              )}
            </li>
          ))}
        </ol>
        {canEdit && dirty ? (
          <div className="flex gap-2">
            <Button
              disabled={save.isPending}
              onClick={() =>
                save.mutate({ templateId, stages: rows.map((r) => ({ id: r.id, name: r.name.trim() })) })
              }
            >
              Save stages
            </Button>
            <Button variant="outline" onClick={() => setDirty(false)}>
              Cancel
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
