import { ZDocumentName, ZFolderName } from '@domain/documents';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, DialogClose, DialogContent, Dialog as DialogRoot, Field, Input } from '@web/ui';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

const ZFolderForm = z.object({ name: ZFolderName });
const ZFileForm = z.object({ name: ZDocumentName });

/** Names a new folder, or renames a folder or a file. */
export function NameDialog({
  open,
  onOpenChange,
  kind,
  title,
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  kind: 'folder' | 'file';
  title: string;
  initial: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (name: string) => void;
}) {
  const form = useForm<{ name: string }>({
    resolver: zodResolver(kind === 'folder' ? ZFolderForm : ZFileForm),
    defaultValues: { name: initial },
  });
  useEffect(() => {
    if (open) form.reset({ name: initial });
  }, [open, initial, form]);
  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={title}
        size="sm"
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="name-form" loading={pending}>
              {submitLabel}
            </Button>
          </>
        }
      >
        <form id="name-form" noValidate onSubmit={form.handleSubmit((v) => onSubmit(v.name))}>
          <Field
            label={kind === 'folder' ? 'Folder name' : 'File name'}
            error={form.formState.errors.name?.message}
            required
          >
            <Input autoFocus {...form.register('name')} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
