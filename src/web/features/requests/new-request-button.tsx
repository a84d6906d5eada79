import { Button } from '@web/ui';
import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { useCan } from '../shell/access';
import { SendRequestDialog } from './send-request-dialog';

/** On a client's page: ask the client for documents and answers, for a member who may send requests. */
export function NewRequestButton({ clientId, projectId }: { clientId: string; projectId?: string }) {
  const [open, setOpen] = useState(false);
  if (!useCan('requests.manage')) return null;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ClipboardList aria-hidden /> New request
      </Button>
      <SendRequestDialog clientId={clientId} projectId={projectId} open={open} onOpenChange={setOpen} />
    </>
  );
}
