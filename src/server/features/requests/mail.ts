import { portalRequestPath } from '../../../domain/requests/constants';
import type { TConfig } from '../../config';
import { absoluteLink, type TMailMessage } from '../../mail';

// The client's mail about a request. Queued through the job queue (enqueueMail) in the change's
// transaction; the link opens the request in the portal, which asks the person to sign in first.

type TUrl = Pick<TConfig, 'publicUrl'>;

export const requestLink = (config: TUrl, clientId: string, requestId: string) =>
  absoluteLink(config.publicUrl, portalRequestPath(clientId, requestId));

export function requestSentMessage(
  config: TUrl,
  m: {
    to: string;
    name: string;
    firmName: string;
    clientName: string;
    title: string;
    due: string;
    itemCount: number;
    message: string;
    clientId: string;
    requestId: string;
  },
): TMailMessage {
  const link = requestLink(config, m.clientId, m.requestId);
  return {
    to: m.to,
    subject: `${m.firmName} needs: ${m.title}`,
    text:
      `Hello ${m.name},\n\n` +
      `${m.firmName} asks for ${m.itemCount} item${m.itemCount === 1 ? '' : 's'} for ${m.clientName} by ${m.due}: “${m.title}”.\n\n` +
      (m.message ? `${m.message}\n\n` : '') +
      `Answer and upload here (what you type is saved as you go):\n${link}\n\n— ${m.firmName}\n`,
    notes: { link },
  };
}

export function itemsReturnedMessage(
  config: TUrl,
  m: {
    to: string;
    name: string;
    firmName: string;
    title: string;
    returned: { label: string; reason: string }[];
    clientId: string;
    requestId: string;
  },
): TMailMessage {
  const link = requestLink(config, m.clientId, m.requestId);
  const list = m.returned.map((r) => `• ${r.label}: ${r.reason}`).join('\n');
  return {
    to: m.to,
    subject: `Please fix: ${m.title}`,
    text:
      `Hello ${m.name},\n\n` +
      `${m.firmName} looked at what you sent for “${m.title}” and needs ${m.returned.length === 1 ? 'one item' : `${m.returned.length} items`} again:\n\n${list}\n\n` +
      `Fix ${m.returned.length === 1 ? 'it' : 'them'} and submit again here:\n${link}\n\n— ${m.firmName}\n`,
    notes: { link },
  };
}
