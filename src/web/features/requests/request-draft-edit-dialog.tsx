import { ZRequestDraftUpdate } from '@domain/requests/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  Input,
  Spinner,
  Textarea,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RecipientsFieldset } from './recipients-fieldset';
import type { TRequestDetail } from './review-item';
import { formProblems, fromDraft, type TDraftSection, toDraft } from './sections-draft';
import { SectionsEditor } from './sections-editor';

/** A request's items back into the sections they were sent in (consecutive items of one title). */
function sectionsOf(items: TRequestDetail['items']) {
  const sections: { title: string; items: TRequestDetail['items'] }[] = [];
  for (const item of items) {
    const last = sections.at(-1);
    if (last && last.title === item.section) last.items.push(item);
    else sections.push({ title: item.section, items: [item] });
  }
  return sections;
}

/**
 * A draft edited for its client before it goes: title, due date, who receives it, the message and
 * the items (added, removed, reordered). Saved as a draft again, or saved and sent.
 */
export function RequestDraftEditDialog({
  request,
  open,
  onOpenChange,
}: {
  request: TRequestDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="xl"
        title="Edit draft request"
        description="Adjust what this client is asked for before it is sent."
      >
        {open ? <DraftForm request={request} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function DraftForm({ request, onDone }: { request: TRequestDetail; onDone: () => void }) {
  const queryClient = useQueryClient();
  const recipients = useQuery(trpc.requests.recipientOptions.queryOptions({ clientId: request.client.id }));
  const [title, setTitle] = useState(request.title);
  const [dueDate, setDueDate] = useState(request.dueDate);
  const [recipientIds, setRecipientIds] = useState(() => request.recipients.map((r) => r.id));
  const [message, setMessage] = useState(request.message);
  const [sections, setSections] = useState<TDraftSection[]>(() => toDraft(sectionsOf(request.items)));
  const [tried, setTried] = useState(false);
  const input = {
    requestId: request.id,
    title,
    dueDate,
    recipientIds,
    message,
    sections: fromDraft(sections),
  };
  const parsed = ZRequestDraftUpdate.safeParse(input);
  const errors = tried ? formProblems(parsed.error, sections) : new Map<string, string>();
  const save = useMutation(
    trpc.requests.updateDraft.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(saved.status === 'sent' ? 'Request sent' : 'Draft saved');
        await queryClient.invalidateQueries({ queryKey: trpc.requests.pathKey() });
        onDone();
      },
    }),
  );
  const submit = (send: boolean) => {
    setTried(true);
    if (!parsed.success) {
      toast.error('Some fields need attention');
      return;
    }
    save.mutate({ ...parsed.data, send });
  };
  if (recipients.isPending) {
    return (
      <div className="grid place-items-center p-8">
        <Spinner />
      </div>
    );
  }
  const people = recipients.data ?? [];
  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit(false);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Title" required error={errors.get('title')}>
          <Input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <Field label="Due date" required error={errors.get('dueDate')}>
          <DatePicker value={dueDate} clearable={false} onChange={(v) => setDueDate(v ?? '')} />
        </Field>
      </div>
      <RecipientsFieldset
        people={people}
        chosen={recipientIds}
        onChange={setRecipientIds}
        error={errors.get('recipientIds')}
        empty={
          <p className="text-sm text-muted-fg">This client has nobody in the portal: invite someone first.</p>
        }
      />
      <Field label="Message" hint="Mailed with the request's link">
        <Textarea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-medium">What to ask for</h3>
        <SectionsEditor sections={sections} onChange={setSections} errors={errors} />
      </div>
      <div className="flex flex-wrap justify-end gap-2 border-t border-border pt-4">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" variant="secondary" loading={save.isPending}>
          Save draft
        </Button>
        <Button loading={save.isPending} onClick={() => submit(true)}>
          Save and send
        </Button>
      </div>
    </form>
  );
}
