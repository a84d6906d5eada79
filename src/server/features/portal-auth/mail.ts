import { ROUTE_PATHS } from '../../../domain/route-guard';
import type { TConfig } from '../../config';
import { absoluteLink, type TMailMessage } from '../../mail';

/**
 * The portal's one-time sign-in code. Sent at the moment of the request, not through the job
 * queue: the person is waiting on the sign-in page, the code dies in minutes and with the next
 * request, and a queued copy would keep the plaintext code in the jobs table.
 */
export function portalCodeMessage(
  config: Pick<TConfig, 'publicUrl'>,
  message: { to: string; code: string; minutes: number },
): TMailMessage {
  const link = absoluteLink(config.publicUrl, ROUTE_PATHS['clientportal-auth-login']);
  return {
    to: message.to,
    subject: `Your client portal sign-in code: ${message.code}`,
    text:
      `Your sign-in code is ${message.code}\n\n` +
      `Enter it on the sign-in page within ${message.minutes} minutes. It works once.\n` +
      `If you did not ask to sign in, ignore this message: nobody can sign in without the code.\n\n${link}\n`,
    notes: { code: message.code },
  };
}
