import type { TConfig } from '../../config';
import type { TMailer } from '../../mail/mailer';

type TUrl = Pick<TConfig, 'publicUrl'>;

export const portalInviteLink = (config: TUrl, key: string) =>
  `${config.publicUrl}/clientportal/auth/invite/${key}`;
export const portalLoginLink = (config: TUrl) => `${config.publicUrl}/clientportal/auth/login`;

export async function sendPortalInviteMail(
  mailer: TMailer,
  config: TUrl,
  invite: { to: string; name: string; key: string; firmName: string; clientName: string; expiresAt: Date },
) {
  const link = portalInviteLink(config, invite.key);
  await mailer.send({
    to: invite.to,
    subject: `${invite.firmName} invited you to their client portal`,
    text:
      `Hello ${invite.name},\n\n` +
      `${invite.firmName} invited you to their client portal for ${invite.clientName}: ` +
      'see what they need from you, share documents and follow your work with them.\n\n' +
      `Open this link to accept the invitation:\n${link}\n\n` +
      `The link works until ${invite.expiresAt.toUTCString()}. If you did not expect this, ignore this message.\n`,
    notes: { link },
  });
}

/** An active portal user given one more client: no invitation to accept, just a note. */
export async function sendPortalAccessMail(
  mailer: TMailer,
  config: TUrl,
  note: { to: string; name: string; firmName: string; clientName: string },
) {
  const link = portalLoginLink(config);
  await mailer.send({
    to: note.to,
    subject: `You now have access to ${note.clientName}`,
    text:
      `Hello ${note.name},\n\n` +
      `${note.firmName} gave you access to ${note.clientName} in their client portal. ` +
      `Sign in as usual to see it:\n${link}\n`,
    notes: { link },
  });
}

export async function sendPortalCodeMail(
  mailer: TMailer,
  config: TUrl,
  message: { to: string; code: string; minutes: number },
) {
  const link = portalLoginLink(config);
  await mailer.send({
    to: message.to,
    subject: `Your client portal sign-in code: ${message.code}`,
    text:
      `Your sign-in code is ${message.code}\n\n` +
      `Enter it on the sign-in page within ${message.minutes} minutes. It works once.\n` +
      `If you did not ask to sign in, ignore this message: nobody can sign in without the code.\n\n${link}\n`,
    notes: { code: message.code },
  });
}
