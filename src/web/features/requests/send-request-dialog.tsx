import { addDays, todayIn } from '@domain/days';
import { ZRequestCreate } from '@domain/requests/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  Button,
  DatePicker,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  Input,
  Select,
  Spinner,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { parseChaseDraft, SendChaseFields, type TChaseDraft } from './chase-fields';
import { RecipientsFieldset } from './recipients-fieldset';
import { blankSections, formProblems, fromDraft, type TDraftSection, toDraft } from './sections-draft';
import { SectionsEditor } from './sections-editor';

const BLANK = '__blank';
/** Two weeks: long enough to gather papers, short enough to be chased. */
const DEFAULT_DAYS = 14;

/** Asks one client for documents and answers: from a template or blank, adjusted for this client. */
export function SendRequestDialog({
  clientId,
  projectId,
  open,
  onOpenChange,
  prefill,
  onCreated,
}: {
  clientId: string;
  /** Sent from a project's page: the request is for that project (and gets a portal to-do in it). */
  projectId?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Started from elsewhere (a client's message): the title and message to begin with. */
  prefill?: { title: string; message: string };
  /** Runs once the request is made, before its page opens (a message notes the link back). */
  onCreated?: (request: { id: string; title: string }) => Promise<void>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="xl"
        title="New request"
        description="What the client is asked for, by when, and who in the client's portal receives it."
      >
        {open ? (
          <SendRequestForm
            clientId={clientId}
            projectId={projectId}
            prefill={prefill}
            onCreated={onCreated}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function SendRequestForm({
  clientId,
  projectId,
  prefill,
  onCreated,
  onDone,
}: {
  clientId: string;
  projectId?: string;
  prefill?: { title: string; message: string };
  onCreated?: (request: { id: string; title: string }) => Promise<void>;
  onDone: () => void;
}) {
  const format = useFormat();
  const go = useNavigate();
  const queryClient = useQueryClient();
  const recipients = useQuery(trpc.requests.recipientOptions.queryOptions({ clientId }));
  const templates = useQuery(trpc.requests.templates.list.queryOptions());
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [title, setTitle] = useState(prefill?.title ?? '');
  const [dueDate, setDueDate] = useState(() => addDays(todayIn(format.timeZone), DEFAULT_DAYS));
  const [recipientIds, setRecipientIds] = useState<string[] | null>(null);
  const [message, setMessage] = useState(prefill?.message ?? '');
  const [sections, setSections] = useState<TDraftSection[]>(blankSections);
  const [tried, setTried] = useState(false);
  const [loadingTemplate, setLoadingTemplate] = useState(false);
  // null: the firm's default schedule, which the server copies onto the request.
  const [chase, setChase] = useState<TChaseDraft | null>(null);
  const chaseParsed = chase ? parseChaseDraft(chase) : null;
  const people = recipients.data ?? [];
  // Everyone the client has in the portal, until the sender says otherwise.
  const chosen = recipientIds ?? people.map((p) => p.id);
  const input = {
    clientId,
    ...(projectId ? { projectId } : {}),
    ...(templateId ? { templateId } : {}),
    title,
    dueDate,
    recipientIds: chosen,
    message,
    sections: fromDraft(sections),
    ...(chaseParsed?.schedule ? { chase: chaseParsed.schedule } : {}),
  };
  const parsed = ZRequestCreate.safeParse(input);
  const errors = tried ? formProblems(parsed.error, sections) : new Map<string, string>();
  const create = useMutation(
    trpc.requests.create.mutationOptions({
      onSuccess: async (created, sent) => {
        toast.success(sent.send === false ? 'Request saved as a draft' : 'Request sent');
        await queryClient.invalidateQueries({ queryKey: trpc.requests.list.queryKey() });
        await onCreated?.({ id: created.id, title: sent.title }).catch((e: Error) => toast.error(e.message));
        onDone();
        await go({ to: '/requests/$id', params: { id: created.id } });
      },
    }),
  );
  const submit = (send: boolean) => {
    setTried(true);
    if (!parsed.success || (chaseParsed && !chaseParsed.schedule)) {
      toast.error('Some fields need attention');
      return;
    }
    create.mutate({ ...parsed.data, send });
  };
  const pickTemplate = async (value: string) => {
    if (value === BLANK) {
      setTemplateId(null);
      setSections(blankSections());
      return;
    }
    setLoadingTemplate(true);
    try {
      const t = await queryClient.fetchQuery(trpc.requests.templates.get.queryOptions({ templateId: value }));
      setTemplateId(t.id);
      setSections(toDraft(t.sections));
      // The sender may have typed a title while the template loaded: theirs stays.
      setTitle((typed) => (typed.trim() ? typed : t.name));
    } finally {
      setLoadingTemplate(false);
    }
  };
  if (recipients.isPending) {
    return (
      <div className="grid place-items-center p-8">
        <Spinner />
      </div>
    );
  }
  if (people.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 py-2">
        <p>
          A request goes to the client's people in the portal, and this client has none yet. Invite one first,
          then send the request.
        </p>
        <Button asChild>
          <Link to="/clients/$id/client-users" params={{ id: clientId }} onClick={onDone}>
            Invite a portal user
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit(true);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Start from">
          <Select
            disabled={loadingTemplate}
            options={[
              { value: BLANK, label: 'A blank request' },
              ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name })),
            ]}
            value={templateId ?? BLANK}
            onValueChange={(v) => void pickTemplate(v)}
          />
        </Field>
        <Field label="Title" required error={errors.get('title')}>
          <Input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label="Due date" required error={errors.get('dueDate')}>
          <DatePicker value={dueDate} clearable={false} onChange={(v) => setDueDate(v ?? '')} />
        </Field>
      </div>
      <RecipientsFieldset
        people={people}
        chosen={chosen}
        onChange={setRecipientIds}
        error={errors.get('recipientIds')}
      />
      <Field label="Message" hint="Mailed with the request's link">
        <Textarea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      <SendChaseFields
        value={chase}
        onChange={setChase}
        errors={tried && chaseParsed ? chaseParsed.errors : new Map()}
      />
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-medium">What to ask for</h3>
        <SectionsEditor sections={sections} onChange={setSections} errors={errors} />
      </div>
      <div className="flex flex-wrap justify-end gap-2 border-t border-border pt-4">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button variant="secondary" loading={create.isPending} onClick={() => submit(false)}>
          Save as draft
        </Button>
        <Button type="submit" loading={create.isPending}>
          Send request
        </Button>
      </div>
    </form>
  );
}
