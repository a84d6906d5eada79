import { resetPasswordLink, verifyLink } from '../../domain/auth-links';
import type { TIdpContext } from './deps';

// The identity provider's messages: a code and, where the web app has a screen for it, a link whose
// key carries the user name and the code.

export async function sendSignUpCode(ctx: TIdpContext, to: string, username: string, code: string) {
  const link = verifyLink(ctx.config.publicUrl, { username, code });
  await ctx.mailer.send({
    to,
    subject: 'Verify your email address',
    text: `Your verification code is ${code}.\n\nOr open this link to verify your email address:\n${link}\n\nIf you did not create an account, ignore this message.\n`,
    notes: { code, link },
  });
}

export async function sendResetCode(ctx: TIdpContext, to: string, username: string, code: string) {
  const link = resetPasswordLink(ctx.config.publicUrl, { username, code });
  await ctx.mailer.send({
    to,
    subject: 'Reset your password',
    text: `Your password reset code is ${code}.\n\nOr open this link to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this message: your password is unchanged.\n`,
    notes: { code, link },
  });
}

export async function sendSignInCode(ctx: TIdpContext, to: string, code: string) {
  await ctx.mailer.send({
    to,
    subject: 'Your sign-in code',
    text: `Your sign-in code is ${code}. It works once, for 5 minutes.\n\nIf you are not signing in, someone knows your password: change it now.\n`,
    notes: { code },
  });
}

export async function sendAttributeCode(ctx: TIdpContext, to: string, code: string) {
  await ctx.mailer.send({
    to,
    subject: 'Confirm your new email address',
    text: `Your verification code is ${code}.\n\nEnter it where you changed your email address.\n`,
    notes: { code },
  });
}
