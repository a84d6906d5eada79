import { type TBroadcastTemplateInput, ZBroadcastTemplateInput } from '@domain/broadcasts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, DialogClose, DialogContent, Dialog as DialogRoot, Field, Input, toast } from '@web/ui';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import { MessagePreview } from './message-preview';
import { RichTextEditor } from './rich-text-editor';

export type TTemplate = { id: string; name: string; subject: string; bodyHtml: string };

/** Creates a broadcast template, or edits the one given; previews it for a chosen client. */
export function TemplateDialog({
  open,
  onOpenChange,
  template,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  template?: TTemplate | null;
}) {
  const queryClient = useQueryClient();
  const form = useForm<TBroadcastTemplateInput, unknown, z.output<typeof ZBroadcastTemplateInput>>({
    resolver: zodResolver(ZBroadcastTemplateInput),
    defaultValues: { name: '', subject: '', bodyHtml: '' },
  });
  useEffect(() => {
    if (open)
      form.reset({
        name: template?.name ?? '',
        subject: template?.subject ?? '',
        bodyHtml: template?.bodyHtml ?? '',
      });
  }, [open, template, form]);
  const done = async (message: string) => {
    toast.success(message);
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: trpc.broadcastTemplates.pathKey() });
  };
  const create = useMutation(
    trpc.broadcastTemplates.create.mutationOptions({ onSuccess: () => done('Template added') }),
  );
  const update = useMutation(
    trpc.broadcastTemplates.update.mutationOptions({ onSuccess: () => done('Template saved') }),
  );
  const errors = form.formState.errors;
  const subject = form.watch('subject');
  const bodyHtml = form.watch('bodyHtml');
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="xl"
        title={template ? `Edit ${template.name}` : 'New broadcast template'}
        description="Placeholders such as {{client_name}} are filled for each client; {{due_date|soon}} says what stands in when there is no value."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              type="submit"
              form="broadcast-template-form"
              loading={create.isPending || update.isPending}
            >
              {template ? 'Save template' : 'Create template'}
            </Button>
          </>
        }
      >
        <form
          id="broadcast-template-form"
          noValidate
          className="grid gap-4 lg:grid-cols-2"
          onSubmit={form.handleSubmit((values) =>
            template ? update.mutate({ id: template.id, ...values }) : create.mutate(values),
          )}
        >
          <div className="flex flex-col gap-4">
            <Field label="Name" error={errors.name?.message} required>
              <Input autoFocus placeholder="Documents for the season" {...form.register('name')} />
            </Field>
            <Field label="Subject" error={errors.subject?.message} required>
              <Input
                placeholder="{{firm_name}}: documents we need for {{fiscal_year}}"
                {...form.register('subject')}
              />
            </Field>
            <Field label="Message" error={errors.bodyHtml?.message} required>
              <Controller
                control={form.control}
                name="bodyHtml"
                render={({ field }) => (
                  <RichTextEditor
                    label="Message"
                    value={field.value}
                    onChange={field.onChange}
                    invalid={!!errors.bodyHtml}
                  />
                )}
              />
            </Field>
          </div>
          <MessagePreview subject={subject} bodyHtml={bodyHtml} />
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
