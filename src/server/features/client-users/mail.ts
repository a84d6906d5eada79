import { createFormatter, type TLocaleSettings } from '../../../domain/format';
import { ROUTE_PATHS } from '../../../domain/route-guard';
import type { TConfig } from '../../config';
import { absoluteLink, type TMailMessage } from '../../mail';

// The portal invitation's texts. They are sent through the job queue: see enqueueMail.

type TUrl = Pick<TConfig, 'publicUrl'>;

export const portalInviteLink = (config: TUrl, key: string) =>
  `${config.publicUrl}/clientportal/auth/invite/${key}`;

export function portalInviteMessage(
  config: TUrl,
  invite: {
    to: string;
    name: string;
    key: string;
    firmName: string;
    firm: TLocaleSettings;
    clientName: string;
    expiresAt: Date;
  },
): TMailMessage {
  const link = portalInviteLink(config, invite.key);
  return {
    to: invite.to,
    subject: `${invite.firmName} invited you to their client portal`,
    text:
      `Hello ${invite.name},\n\n` +
      `${invite.firmName} invited you to their client portal for ${invite.clientName}: ` +
      'see what they need from you, share documents and follow your work with them.\n\n' +
      `Open this link to accept the invitation:\n${link}\n\n` +
      `The link works until ${createFormatter(invite.firm).dateTime(invite.expiresAt)} (${invite.firm.timeZone}). ` +
      'If you did not expect this, ignore this message.\n',
    notes: { link },
  };
}

/** An active portal user given one more client: no invitation to accept, just a note. */
export function portalAccessMessage(
  config: TUrl,
  note: { to: string; name: string; firmName: string; clientName: string },
): TMailMessage {
  const link = absoluteLink(config.publicUrl, ROUTE_PATHS['clientportal-auth-login']);
  return {
    to: note.to,
    subject: `You now have access to ${note.clientName}`,
    text:
      `Hello ${note.name},\n\n` +
      `${note.firmName} gave you access to ${note.clientName} in their client portal. ` +
      `Sign in as usual to see it:\n${link}\n`,
    notes: { link },
  };
}
