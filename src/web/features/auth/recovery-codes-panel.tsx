import { Button, toast } from '@web/ui';

/**
 * Recovery codes, shown once: each signs in once in place of an authenticator code. Copy or
 * download them now; the server keeps only their hashes.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Recovery codes copied');
    } catch {
      toast.error('Could not copy: select the codes and copy them yourself');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'practice-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-fg">
        Keep these somewhere safe. If you lose your phone, each code signs you in once instead of a code from
        the app. They are shown only now.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={copy}>
          Copy
        </Button>
        <Button type="button" variant="secondary" onClick={download}>
          Download
        </Button>
        <Button type="button" onClick={onDone} className="ml-auto">
          I have saved them
        </Button>
      </div>
    </div>
  );
}
