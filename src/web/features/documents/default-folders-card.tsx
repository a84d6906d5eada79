import { MAX_DEFAULT_FOLDERS, ZDefaultClientFolders } from '@domain/documents';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Textarea,
  toast,
} from '@web/ui';
import { useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { RequestFilingSetting } from './request-filing-setting';

/**
 * The folders every client's documents start with, one path per line ("Returns/2026-27" is a folder
 * in a folder). A section of /admin/settings/org with its own save: it is not part of the profile.
 */
export function DefaultFoldersCard({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const current = useQuery(trpc.documents.defaultFolders.queryOptions());
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (current.data) setText(current.data.folders.join('\n'));
  }, [current.data]);
  const save = useMutation(
    trpc.documents.setDefaultFolders.mutationOptions({
      onSuccess: async ({ changed }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.documents.defaultFolders.queryKey() });
        toast.success(changed ? 'Default folders saved' : 'Nothing to save: no changes');
      },
    }),
  );
  const submit = () => {
    const parsed = ZDefaultClientFolders.safeParse({
      folders: text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the folder names');
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  };
  return (
    <Card id="documents" aria-labelledby="documents-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="documents-title">Client documents</CardTitle>
          <CardDescription>
            The folders a client's documents start with, made the first time they are opened. One folder per
            line; use "/" for a folder inside another (at most {MAX_DEFAULT_FOLDERS}).
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Field label="Default folders" error={error ?? undefined}>
          <Textarea
            rows={5}
            value={text}
            disabled={!canEdit || current.isPending}
            placeholder={'KYC\nReturns/2026-27'}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        {canEdit ? (
          <div className="flex justify-end">
            <Button variant="outline" loading={save.isPending} onClick={submit}>
              Save default folders
            </Button>
          </div>
        ) : null}
        <RequestFilingSetting canEdit={canEdit} />
      </CardContent>
    </Card>
  );
}
