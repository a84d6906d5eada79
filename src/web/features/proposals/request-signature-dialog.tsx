import {
  SIGNING_ORDER_LABELS,
  SIGNING_ORDERS,
  type TSigningOrder,
  ZSignatureRequest,
} from '@domain/proposals';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Button,
  DatePicker,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  Input,
  Select,
  Textarea,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { SignersEditor } from './signers-editor';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Sends one of a client's PDFs for signature (issue 37 item 7): the signers (the client's portal
 * users, its contact, or anyone by email), in turn or in any order, until a date. They sign with
 * the proposals' signing page; the sealed copy is filed next to the original.
 */
export function RequestSignatureDialog({
  open,
  onOpenChange,
  clientId,
  document,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  clientId: string;
  document: { id: string; name: string };
}) {
  const go = useNavigate();
  const [title, setTitle] = useState(document.name.replace(/\.pdf$/i, ''));
  const [message, setMessage] = useState('');
  const [expiresOn, setExpiresOn] = useState(inDays(14));
  const [signingOrder, setOrder] = useState<TSigningOrder>('any');
  const [signers, setSigners] = useState<{ name: string; email: string }[]>([{ name: '', email: '' }]);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation(
    trpc.proposals.requestSignature.mutationOptions({
      onSuccess: async (created) => {
        toast.success('Sent for signature');
        onOpenChange(false);
        await go({ to: '/proposals/$id', params: { id: created.id } });
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  const submit = () => {
    const parsed = ZSignatureRequest.safeParse({
      documentId: document.id,
      title,
      message,
      expiresOn,
      signingOrder,
      signers: signers.filter((s) => s.name.trim() || s.email.trim()),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the request');
      return;
    }
    setError(null);
    send.mutate(parsed.data);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Request signatures on ${document.name}`}
        description="Each signer gets a link by email and confirms it with a one-time code (the client's portal users can also sign in the portal). When everyone has signed, the signed copy is sealed and filed next to this file."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button loading={send.isPending} onClick={submit}>
              Send for signature
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          <Field label="Title">
            <Input value={title} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <Field label="Message to the signers" hint="Optional">
            <Textarea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Sign by">
              <DatePicker value={expiresOn} onChange={(v) => setExpiresOn(v ?? '')} />
            </Field>
            <Field label="Signing order">
              <Select
                value={signingOrder}
                options={SIGNING_ORDERS.map((o) => ({ value: o, label: SIGNING_ORDER_LABELS[o] }))}
                onValueChange={(v) => setOrder(v as TSigningOrder)}
              />
            </Field>
          </div>
          <SignersEditor clientId={clientId} signers={signers} onChange={setSigners} enabled={open} />
          {error && (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
