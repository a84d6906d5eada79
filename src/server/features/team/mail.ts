import { createFormatter, type TLocaleSettings } from '../../../domain/format';
import type { TConfig } from '../../config';
import type { TMailMessage } from '../../mail';

// The team's own message texts. They are sent through the job queue: see enqueueMail.

export function inviteLink(config: Pick<TConfig, 'publicUrl'>, key: string): string {
  return `${config.publicUrl}/auth/invite/${key}`;
}

export function inviteMessage(
  config: Pick<TConfig, 'publicUrl'>,
  invite: {
    to: string;
    key: string;
    firmName: string;
    inviterName: string;
    roleName: string;
    expiresAt: Date;
    firm: TLocaleSettings;
  },
): TMailMessage {
  const link = inviteLink(config, invite.key);
  // On the firm's clock, as every screen of the firm shows time.
  const expires = `${createFormatter(invite.firm).dateTime(invite.expiresAt)} (${invite.firm.timeZone})`;
  return {
    to: invite.to,
    subject: `${invite.inviterName} invited you to join ${invite.firmName}`,
    text:
      `${invite.inviterName} invited you to join ${invite.firmName} on Practice as ${invite.roleName}.\n\n` +
      `Open this link to accept the invitation:\n${link}\n\n` +
      `The link works until ${expires}. If you did not expect this, ignore this message.\n`,
    notes: { link },
  };
}
