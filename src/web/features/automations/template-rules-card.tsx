import { READY_MADE_RULES, type TReadyMade } from '@domain/automations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, Button, Card, CardContent, CardHeader, CardTitle, Select, Skeleton, toast } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';

/**
 * A project template's rules: those that act on its stages (by name) or are kept to its projects,
 * and a ready-made rule added for this template only (switched off, as every new rule).
 */
export function TemplateRulesCard({ templateId }: { templateId: string }) {
  const rules = useQuery(trpc.automations.forTemplate.queryOptions({ templateId }));
  const queryClient = useQueryClient();
  const [key, setKey] = useState<TReadyMade['key']>('review-when-prepared');
  const add = useMutation(
    trpc.automations.addReadyMade.mutationOptions({
      onSuccess: async () => {
        toast.success('Rule added, switched off: review it in Automations and switch it on');
        await queryClient.invalidateQueries({ queryKey: trpc.automations.pathKey() });
      },
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Rules for these stages</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {rules.isPending ? (
          <Skeleton className="h-10" />
        ) : !rules.data?.length ? (
          <p className="text-sm text-muted-fg">No rule acts on this template’s stages yet.</p>
        ) : (
          <ul className="flex flex-col gap-1" aria-label="Rules for these stages">
            {rules.data.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center gap-2 text-sm">
                <Link to="/admin/automations" search={{ rule: r.id }} className="text-primary underline">
                  {r.name}
                </Link>
                <span className="text-muted-fg">{r.triggerLabel}</span>
                <Badge tone={r.enabled ? 'green' : 'grey'}>{r.enabled ? 'On' : 'Off'}</Badge>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Select
            aria-label="Ready-made rule"
            className="w-80"
            value={key}
            onValueChange={(v) => setKey(v as TReadyMade['key'])}
            options={READY_MADE_RULES.map((r) => ({ value: r.key, label: r.name }))}
          />
          <Button
            size="sm"
            variant="outline"
            loading={add.isPending}
            onClick={() => add.mutate({ key, templateId })}
          >
            Add for this template
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
