import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TDb } from '../../db/client';
import { orgLogos, orgs } from '../../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GET /api/orgs/{orgId}/logo?v={logoVersion}. Public on purpose: an <img> sends no staff token, and
 * the portal's sign-in page shows the logo before anyone signs in. The URL changes with every
 * upload, so the current version is cached for a year; any other version is revalidated.
 */
export function registerLogoRoute(app: FastifyInstance, db: TDb) {
  app.get<{ Params: { orgId: string }; Querystring: { v?: string } }>(
    '/api/orgs/:orgId/logo',
    { config: { auth: 'public' } },
    async (req, reply) => {
      const { orgId } = req.params;
      const notFound = () => reply.code(404).header('cache-control', 'no-store').send({ error: 'Not Found' });
      if (!UUID.test(orgId)) return notFound();
      const [logo] = await db
        .select({ contentType: orgLogos.contentType, bytes: orgLogos.bytes, version: orgs.logoVersion })
        .from(orgLogos)
        .innerJoin(orgs, eq(orgs.id, orgLogos.orgId))
        .where(eq(orgLogos.orgId, orgId))
        .limit(1);
      if (!logo) return notFound();
      const current = req.query.v === String(logo.version);
      return reply
        .code(200)
        .type(logo.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(logo.bytes);
    },
  );
}
