import { ZRequestTemplateSave } from '@domain/requests/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Button, Card, Field, Input, PageHeader, Spinner, Textarea, toast } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { NoAccess, useCan } from '../../shell/access';
import { RecordNotFound } from '../../shell/record-not-found';
import { blankSections, formProblems, fromDraft, type TDraftSection, toDraft } from '../sections-draft';
import { SectionsEditor } from '../sections-editor';

const route = getRouteApi('/_main/admin/templates/requests/$id');

type TTemplate = { id?: string; name: string; description: string; sections: TDraftSection[] };

/** /admin/templates/requests/{id}: a request template's sections and items; `new` starts one. */
export function RequestTemplatePage() {
  if (!useCan('requests.view')) return <NoAccess />;
  return <TemplateScreen />;
}

function TemplateScreen() {
  const { id } = route.useParams();
  const isNew = id === 'new';
  const template = useQuery({
    ...trpc.requests.templates.get.queryOptions({ templateId: id }),
    enabled: !isNew,
  });
  if (isNew) {
    return <TemplateEditor initial={{ name: '', description: '', sections: blankSections() }} />;
  }
  if (template.error?.data?.code === 'NOT_FOUND') {
    return (
      <RecordNotFound
        thing="template"
        back={{ to: '/admin/templates/requests', label: 'Back to request templates' }}
      />
    );
  }
  if (template.error) throw template.error;
  if (!template.data) {
    return (
      <div className="grid place-items-center p-16">
        <Spinner />
      </div>
    );
  }
  const t = template.data;
  return (
    <TemplateEditor
      key={t.id}
      initial={{ id: t.id, name: t.name, description: t.description, sections: toDraft(t.sections) }}
    />
  );
}

function TemplateEditor({ initial }: { initial: TTemplate }) {
  const canManage = useCan('requests.manage');
  const go = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [tried, setTried] = useState(false);
  const input = {
    ...(draft.id ? { templateId: draft.id } : {}),
    name: draft.name,
    description: draft.description,
    sections: fromDraft(draft.sections),
  };
  const parsed = ZRequestTemplateSave.safeParse(input);
  const errors = tried ? formProblems(parsed.error, draft.sections) : new Map<string, string>();
  const save = useMutation(
    trpc.requests.templates.save.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(draft.id ? 'Template saved' : `Added the template ${saved.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.requests.templates.pathKey() });
        if (!draft.id)
          await go({ to: '/admin/templates/requests/$id', params: { id: saved.id }, replace: true });
      },
    }),
  );
  const submit = () => {
    setTried(true);
    if (!parsed.success) {
      toast.error('Some items need attention');
      return;
    }
    save.mutate(parsed.data);
  };
  const title = draft.id ? initial.name : 'New request template';
  return (
    <form
      className="mx-auto flex max-w-4xl flex-col gap-6 p-4 sm:p-6"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <PageHeader
        title={title}
        trail={[
          { label: 'Admin', to: '/admin' },
          { label: 'Request templates', to: '/admin/templates/requests' },
          { label: title },
        ]}
        actions={
          canManage ? (
            <Button type="submit" loading={save.isPending}>
              Save template
            </Button>
          ) : null
        }
      />
      <fieldset disabled={!canManage} className="contents">
        <Card className="grid gap-4 p-4">
          <Field label="Name" required error={errors.get('name')}>
            <Input
              value={draft.name}
              maxLength={120}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            />
          </Field>
          <Field
            label="Description"
            hint="For the firm; clients do not see it"
            error={errors.get('description')}
          >
            <Textarea
              rows={2}
              value={draft.description}
              onChange={(e) => setDraft({ ...draft, description: e.target.value })}
            />
          </Field>
        </Card>
        <SectionsEditor
          sections={draft.sections}
          errors={errors}
          onChange={(sections) => setDraft({ ...draft, sections })}
        />
      </fieldset>
      {canManage ? (
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending}>
            Save template
          </Button>
        </div>
      ) : null}
    </form>
  );
}
