import { LOGO_MAX_BYTES } from '@domain/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, confirm } from '@web/ui';
import { ImageUp, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';

const ACCEPT = 'image/png,image/jpeg,image/webp';

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The firm's logo: shown, replaced or removed at once (not part of the profile form's Save). */
export function LogoField({
  logoUrl,
  canEdit,
  firmName,
}: {
  logoUrl: string | null;
  canEdit: boolean;
  firmName: string;
}) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
  const upload = useMutation(trpc.settings.uploadLogo.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.settings.removeLogo.mutationOptions({ onSuccess: refresh }));

  async function onFile(file: File | undefined) {
    setError(null);
    if (!file) return;
    // The server decides from the bytes; these checks only spare a pointless upload.
    if (file.size > LOGO_MAX_BYTES) return setError(`The logo must be at most ${LOGO_MAX_BYTES / 1024} KB`);
    if (file.type === 'image/svg+xml') {
      return setError(
        'SVG logos are not accepted (they can carry scripts): upload a PNG, JPEG or WebP image',
      );
    }
    upload.mutate({ dataBase64: await readBase64(file) }, { onError: (e) => setError(e.message) });
  }

  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-fg" id="logo-label">
        Logo
      </span>
      <div className="flex flex-wrap items-center gap-4">
        <div className="grid size-20 shrink-0 place-items-center overflow-hidden rounded-lg border border-border bg-muted">
          {logoUrl ? (
            <img src={logoUrl} alt={`${firmName} logo`} className="size-full object-contain p-1" />
          ) : (
            <ImageUp aria-hidden className="size-6 text-muted-fg" />
          )}
        </div>
        {canEdit ? (
          <div className="flex flex-col gap-2">
            <div className="flex gap-2">
              <Button variant="outline" loading={upload.isPending} onClick={() => input.current?.click()}>
                <ImageUp aria-hidden />
                {logoUrl ? 'Replace logo' : 'Upload logo'}
              </Button>
              {logoUrl ? (
                <Button
                  variant="ghost"
                  loading={remove.isPending}
                  onClick={async () => {
                    if (
                      await confirm({
                        title: 'Remove the logo?',
                        message: 'Portal pages and documents will show the firm name instead.',
                        confirmLabel: 'Remove',
                        danger: true,
                      })
                    )
                      remove.mutate();
                  }}
                >
                  <Trash2 aria-hidden />
                  Remove
                </Button>
              ) : null}
            </div>
            <input
              ref={input}
              type="file"
              accept={ACCEPT}
              aria-labelledby="logo-label"
              className="sr-only"
              tabIndex={-1}
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </div>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : (
        <p className="text-xs text-muted-fg">
          PNG, JPEG or WebP, at most {LOGO_MAX_BYTES / 1024} KB. Square works best.
        </p>
      )}
    </div>
  );
}
