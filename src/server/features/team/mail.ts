import type { TConfig } from '../../config';
import { createMailer, type TMailer } from '../../mail/mailer';

type TLog = { info(obj: object, msg: string): void };

// One mailer per mail configuration (an SMTP transport keeps its pool between messages).
const mailers = new WeakMap<TConfig['mail'], TMailer>();

export function mailerFor(config: TConfig, log?: TLog): TMailer {
  let mailer = mailers.get(config.mail);
  if (!mailer) {
    mailer = createMailer(config.mail, log);
    mailers.set(config.mail, mailer);
  }
  return mailer;
}

export function inviteLink(config: Pick<TConfig, 'publicUrl'>, key: string): string {
  return `${config.publicUrl}/auth/invite/${key}`;
}

export async function sendInviteMail(
  mailer: TMailer,
  config: Pick<TConfig, 'publicUrl'>,
  invite: {
    to: string;
    key: string;
    firmName: string;
    inviterName: string;
    roleName: string;
    expiresAt: Date;
  },
) {
  const link = inviteLink(config, invite.key);
  const expires = invite.expiresAt.toUTCString();
  await mailer.send({
    to: invite.to,
    subject: `${invite.inviterName} invited you to join ${invite.firmName}`,
    text:
      `${invite.inviterName} invited you to join ${invite.firmName} on Practice as ${invite.roleName}.\n\n` +
      `Open this link to accept the invitation:\n${link}\n\n` +
      `The link works until ${expires}. If you did not expect this, ignore this message.\n`,
    notes: { link },
  });
}
