import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  buttonVariants,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
} from '@web/ui';
import { Circle, CircleCheck } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { HrefLink } from './href-link';

/**
 * The new firm's first steps, for those who set the firm up: each ticked by the firm's own data
 * (server: dashboard.setup), the next one to do first in line. Gone once every step is done, or
 * when dismissed (for the whole firm).
 */
export function SetupChecklist() {
  const canSetUp = useCan('settings.edit');
  const queryClient = useQueryClient();
  const setup = useQuery({ ...trpc.dashboard.setup.queryOptions(), enabled: canSetUp });
  const dismiss = useMutation(
    trpc.dashboard.dismissSetup.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.setup.queryKey() }),
    }),
  );
  const steps = setup.data?.steps;
  if (!canSetUp || !steps) return null;
  const done = steps.filter((s) => s.done).length;
  const next = steps.find((s) => !s.done)?.key;
  return (
    <Card aria-labelledby="setup-title">
      <CardHeader>
        <div className="min-w-0">
          <CardTitle id="setup-title" className="text-base">
            Set up your firm
          </CardTitle>
          <CardDescription>
            {done} of {steps.length} done. Each step ticks itself once the firm has it.
          </CardDescription>
        </div>
        <Button variant="ghost" size="sm" loading={dismiss.isPending} onClick={() => dismiss.mutate()}>
          Dismiss
        </Button>
      </CardHeader>
      <CardContent>
        <ol className="divide-y divide-border">
          {steps.map((step) => (
            <li key={step.key} className="flex flex-wrap items-center gap-3 py-3">
              {step.done ? (
                <CircleCheck aria-hidden className="size-5 shrink-0 text-green-600 dark:text-green-400" />
              ) : (
                <Circle aria-hidden className="size-5 shrink-0 text-muted-fg" />
              )}
              <div className="min-w-0 flex-1">
                <p className={cn('text-sm font-medium', step.done && 'text-muted-fg')}>
                  {step.title}
                  <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                </p>
                {step.done ? null : <p className="text-sm text-muted-fg">{step.description}</p>}
              </div>
              {step.done ? null : (
                <HrefLink
                  href={step.href}
                  className={buttonVariants({
                    variant: step.key === next ? 'primary' : 'outline',
                    size: 'sm',
                  })}
                >
                  {step.action}
                </HrefLink>
              )}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
