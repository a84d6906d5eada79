import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { receiveInbound, type TInboundDeps } from './inbound';

export const INBOUND_WEBHOOK_PATH = '/api/messages/inbound';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * POST /api/messages/inbound: an email provider's inbound webhook, posting the raw message
 * (message/rfc822) with the shared secret in `x-inbound-secret` and, if it has them, the envelope's
 * recipients in `x-envelope-to` (comma-separated). Registered only when INBOUND_WEBHOOK_SECRET is
 * set; the body is limited to INBOUND_MAX_BYTES.
 */
export function registerInboundWebhook(app: FastifyInstance, deps: TInboundDeps) {
  const inbound = deps.config.inbound;
  if (!inbound?.webhookSecret) return;
  const secret = inbound.webhookSecret;
  app.register(async (scoped) => {
    scoped.addContentTypeParser(
      ['message/rfc822', 'text/plain', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: inbound.maxBytes },
      (_req, body, done) => done(null, body),
    );
    scoped.post(
      INBOUND_WEBHOOK_PATH,
      { config: { auth: 'public' }, bodyLimit: inbound.maxBytes },
      async (req, reply) => {
        const given = req.headers['x-inbound-secret'];
        if (typeof given !== 'string' || !same(given, secret))
          return reply.code(401).send({ message: 'Not a known sender of inbound mail' });
        if (!Buffer.isBuffer(req.body) || req.body.length === 0)
          return reply.code(400).send({ message: 'Send the raw message as message/rfc822' });
        const envelope = req.headers['x-envelope-to'];
        const recipients =
          typeof envelope === 'string'
            ? envelope
                .split(',')
                .map((a) => a.trim())
                .filter(Boolean)
            : undefined;
        const outcomes = await receiveInbound(deps, req.body, recipients);
        return reply
          .code(200)
          .send({ outcomes: outcomes.map(({ address, outcome }) => ({ address, outcome })) });
      },
    );
  });
}
