import { signerPath } from '../../../domain/proposals';
import type { TConfig } from '../../config';
import { absoluteLink, type TMailMessage } from '../../mail';

// The signer's mail. The proposal itself is queued through the job queue in the sending
// transaction; the one-time code is sent at once (as the portal's), since the signer waits for it.

type TUrl = Pick<TConfig, 'publicUrl'>;

export const signerLink = (config: TUrl, proposalId: string, signerId: string, token: string) =>
  absoluteLink(config.publicUrl, signerPath(proposalId, signerId, token));

export function proposalSentMessage(
  config: TUrl,
  m: {
    to: string;
    name: string;
    firmName: string;
    title: string;
    expires: string;
    proposalId: string;
    signerId: string;
    token: string;
    reminder?: boolean;
  },
): TMailMessage {
  const link = signerLink(config, m.proposalId, m.signerId, m.token);
  return {
    to: m.to,
    subject: `${m.reminder ? 'Reminder: ' : ''}${m.firmName}: ${m.title} for your signature`,
    text:
      `Hello ${m.name},\n\n` +
      `${m.firmName} sends you “${m.title}” to review and sign by ${m.expires}.\n\n` +
      `Open it here (we will email you a one-time code to confirm it is you):\n${link}\n\n` +
      `This link is yours alone: do not forward it.\n\n— ${m.firmName}\n`,
    notes: { link },
  };
}

export function signerCodeMessage(m: {
  to: string;
  code: string;
  minutes: number;
  firmName: string;
}): TMailMessage {
  return {
    to: m.to,
    subject: `Your code to open ${m.firmName}'s document: ${m.code}`,
    text:
      `Your one-time code is ${m.code}.\n\n` +
      `It works once, for ${m.minutes} minutes. If you did not ask for it, ignore this email.\n`,
    notes: { code: m.code },
  };
}
