import { ZProposalTemplateSave } from '@domain/proposals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Button, confirm, Field, Input, PageHeader, Spinner, toast } from '@web/ui';
import { useEffect, useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { RequirePermission } from '../shell/access';
import { RecordNotFound } from '../shell/record-not-found';
import { ContentFields, emptyContent, type TContentDraft, toDraft } from './content-fields';

const route = getRouteApi('/_main/admin/templates/proposals/$id');

export function ProposalTemplatePage() {
  return (
    <RequirePermission permission="proposals.manage">
      <TemplateEditor />
    </RequirePermission>
  );
}

function TemplateEditor() {
  const { id } = route.useParams();
  const isNew = id === 'new';
  const go = useNavigate();
  const queryClient = useQueryClient();
  const existing = useQuery({
    ...trpc.proposals.templates.get.queryOptions({ templateId: id }),
    enabled: !isNew,
  });
  const [name, setName] = useState('');
  const [content, setContent] = useState<TContentDraft>(emptyContent);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (existing.data) {
      setName(existing.data.name);
      setContent(toDraft(existing.data));
    }
  }, [existing.data]);
  const save = useMutation(
    trpc.proposals.templates.save.mutationOptions({
      onSuccess: async (saved) => {
        toast.success('Template saved');
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.templates.pathKey() });
        if (isNew) await go({ to: '/admin/templates/proposals/$id', params: { id: saved.id } });
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  const remove = useMutation(
    trpc.proposals.templates.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Template deleted');
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.templates.pathKey() });
        await go({ to: '/admin/templates/proposals' });
      },
    }),
  );
  if (!isNew && existing.isPending) return <Spinner />;
  if (!isNew && existing.isError) {
    return (
      <RecordNotFound
        thing="template"
        back={{ to: '/admin/templates/proposals', label: 'Back to proposal templates' }}
      />
    );
  }
  const submit = () => {
    const parsed = ZProposalTemplateSave.safeParse({
      ...(isNew ? {} : { templateId: id }),
      name,
      ...content,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the template');
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  };
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={isNew ? 'New proposal template' : name || 'Proposal template'}
        trail={[
          { label: 'Admin', to: '/admin' },
          { label: 'Proposal templates', to: '/admin/templates/proposals' },
          { label: isNew ? 'New' : name },
        ]}
        actions={
          !isNew ? (
            <Button
              variant="outline"
              onClick={async () => {
                if (
                  await confirm({
                    title: `Delete “${name}”?`,
                    message: 'Proposals already written from it keep their letter.',
                    confirmLabel: 'Delete',
                    danger: true,
                  })
                )
                  remove.mutate({ templateId: id });
              }}
            >
              Delete
            </Button>
          ) : null
        }
      />
      <Field label="Template name">
        <Input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <ContentFields value={content} onChange={setContent} />
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <Button className="self-start" loading={save.isPending} onClick={submit}>
        Save template
      </Button>
    </div>
  );
}
