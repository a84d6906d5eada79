import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { unsubscribe, verifyToken } from './unsubscribe';

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#1d4ed8;color:#fff;cursor:pointer}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;

const GONE = page('Link not valid', '<p>This unsubscribe link is not valid. Nothing was changed.</p>');

/**
 * The unsubscribe link of a broadcast (RFC 8058). POST unsubscribes at once: the mailbox's
 * one-click button (body `List-Unsubscribe=One-Click`) and the page's button. GET only shows the
 * button, because mail scanners open links and must not unsubscribe anyone by doing so.
 */
export function registerBroadcastRoutes(
  app: FastifyInstance,
  deps: { db: TDb; config: Pick<TConfig, 'vault'> },
) {
  // One-click posts arrive form-encoded; the body's content does not change what happens.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
  }
  app.get<{ Params: { token: string } }>(
    '/api/broadcasts/unsubscribe/:token',
    { config: { auth: 'public' } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!(await verifyToken(deps.config, deps.db, req.params.token))) return reply.code(404).send(GONE);
      return page(
        'Unsubscribe',
        `<p>Stop receiving these mailings from the firm? You will still get sign-in codes, invitations and reminders.</p>
      <form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );
  app.post<{ Params: { token: string } }>(
    '/api/broadcasts/unsubscribe/:token',
    { config: { auth: 'public' } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const id = await verifyToken(deps.config, deps.db, req.params.token);
      const done = id ? await unsubscribe(deps.db, id) : null;
      if (!done) return reply.code(404).send(GONE);
      return page(
        'Unsubscribed',
        `<p>${done.email.replace(/[<>&"]/g, '')} will get no more of these mailings.</p>`,
      );
    },
  );
}
