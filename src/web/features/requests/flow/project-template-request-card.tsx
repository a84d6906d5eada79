import {
  DEFAULT_DUE_DAYS_BEFORE,
  DEFAULT_LEAD_DAYS,
  projectRequestLabel,
  ZProjectTemplateRequest,
} from '@domain/requests/flow';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Field,
  Input,
  Select,
  Spinner,
  toast,
} from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { useCan } from '../../shell/access';

const NONE = '__none';

/**
 * On a project template's screen: the client request each project made from it sends by itself,
 * a lead time before the project's due date, due back a few days before it.
 */
export function ProjectTemplateRequestCard({ projectTemplateId }: { projectTemplateId: string }) {
  const canView = useCan('requests.view');
  const canEdit = useCan('requests.manage');
  const queryClient = useQueryClient();
  const current = useQuery({
    ...trpc.requests.projectTemplate.queryOptions({ projectTemplateId }),
    enabled: canView,
  });
  const templates = useQuery({ ...trpc.requests.templates.list.queryOptions(), enabled: canEdit });
  const [requestTemplateId, setRequestTemplateId] = useState(NONE);
  const [leadDays, setLeadDays] = useState(String(DEFAULT_LEAD_DAYS));
  const [dueDaysBefore, setDueDaysBefore] = useState(String(DEFAULT_DUE_DAYS_BEFORE));
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!current.data) return;
    setRequestTemplateId(current.data.requestTemplateId);
    setLeadDays(String(current.data.leadDays));
    setDueDaysBefore(String(current.data.dueDaysBefore));
  }, [current.data]);
  const save = useMutation(
    trpc.requests.setProjectTemplate.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(
          saved ? 'Projects will send the request by themselves' : 'Request removed from the template',
        );
        setTried(false);
        await queryClient.invalidateQueries({ queryKey: trpc.requests.projectTemplate.queryKey() });
      },
    }),
  );
  if (!canView) return null;
  const parsed = ZProjectTemplateRequest.safeParse({
    projectTemplateId,
    requestTemplateId: requestTemplateId === NONE ? null : requestTemplateId,
    leadDays: leadDays.trim() === '' ? Number.NaN : Number(leadDays),
    dueDaysBefore: dueDaysBefore.trim() === '' ? Number.NaN : Number(dueDaysBefore),
  });
  const errors = new Map<string, string>();
  if (tried && !parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (!errors.has(key)) errors.set(key, issue.message);
    }
  }
  const off = requestTemplateId === NONE;
  return (
    <Card aria-labelledby="template-request-title">
      <CardHeader>
        <CardTitle id="template-request-title">Client request</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {current.isPending ? (
          <Spinner />
        ) : !canEdit ? (
          <p className="text-sm">
            {current.data
              ? `“${current.data.requestTemplateName}”. ${projectRequestLabel(current.data.leadDays, current.data.dueDaysBefore)}.`
              : 'Projects from this template send no request by themselves.'}
          </p>
        ) : (
          <form
            noValidate
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              setTried(true);
              if (!parsed.success) {
                toast.error('Some fields need attention');
                return;
              }
              save.mutate(parsed.data);
            }}
          >
            <p className="text-sm text-muted-fg">
              Each project made from this template asks its client for documents and answers by itself, sent
              to the client’s portal users. A client nobody uses the portal for gets a draft to send after
              inviting someone.
            </p>
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="Request template" error={errors.get('requestTemplateId')}>
                <Select
                  options={[
                    { value: NONE, label: 'None' },
                    ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name })),
                  ]}
                  value={requestTemplateId}
                  onValueChange={setRequestTemplateId}
                />
              </Field>
              <Field
                label="Send it, days before the due date"
                error={errors.get('leadDays')}
                hint="Before each project's due date"
              >
                <Input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  value={leadDays}
                  disabled={off}
                  onChange={(e) => setLeadDays(e.target.value)}
                />
              </Field>
              <Field
                label="Due back, days before the due date"
                error={errors.get('dueDaysBefore')}
                hint="The client's due date"
              >
                <Input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  value={dueDaysBefore}
                  disabled={off}
                  onChange={(e) => setDueDaysBefore(e.target.value)}
                />
              </Field>
            </div>
            {!off && parsed.success ? (
              <p className="text-sm" aria-live="polite">
                {projectRequestLabel(parsed.data.leadDays, parsed.data.dueDaysBefore)}.
              </p>
            ) : null}
            {templates.data && templates.data.length === 0 ? (
              <p className="text-sm text-muted-fg">
                No request templates yet.{' '}
                <Link to="/admin/templates/requests" className="text-primary underline">
                  Make one
                </Link>
                .
              </p>
            ) : null}
            <div className="flex justify-end">
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
