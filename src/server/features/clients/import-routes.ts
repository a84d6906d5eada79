import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  CLIENT_IMPORT_MAX_BYTES,
  CLIENT_IMPORT_UPLOAD_PATH,
  FIELD_HEADERS,
  IMPORT_FIELDS,
} from '../../../domain/client-import';
import type { TDb } from '../../db/client';
import type { TStaffAuth } from '../../idp/staff-auth';
import { csvWriter, safeFileName } from './csv';
import { messagesText, readSheet, stageImport, unimportedRows } from './import';
import { staffRouteScope } from './route-auth';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sendError(reply: FastifyReply, error: unknown) {
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    return reply.code(getHTTPStatusCodeFromError(error)).send({ error: error.code, message: error.message });
  }
  throw error;
}

/**
 * POST /api/clients/import (multipart, one file, at most 10 MB): reads and checks the file and
 * answers the staged import's id for the preview. GET /api/clients/import/{id}/errors.csv: the rows
 * that did not go in, with the reasons, in the export's columns so the file can be fixed and
 * uploaded again. Plain routes because a file is neither a tRPC input nor a tRPC answer.
 */
export async function registerClientImportRoutes(
  app: FastifyInstance,
  deps: { db: TDb; staffAuth: TStaffAuth },
) {
  // Encapsulated: multipart parsing exists for this route only.
  await app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: CLIENT_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 },
    });
    scoped.post(CLIENT_IMPORT_UPLOAD_PATH, async (req, reply) => {
      const caller = await staffRouteScope(deps.staffAuth, req, reply, 'clients.create');
      if (!caller) return reply;
      if (!req.isMultipart()) {
        return reply
          .code(400)
          .send({ error: 'BAD_REQUEST', message: 'Choose a CSV or Excel file to upload' });
      }
      const file = await req.file();
      if (!file)
        return reply
          .code(400)
          .send({ error: 'BAD_REQUEST', message: 'Choose a CSV or Excel file to upload' });
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (error) {
        if (error instanceof scoped.multipartErrors.RequestFileTooLargeError) {
          return reply.code(413).send({
            error: 'PAYLOAD_TOO_LARGE',
            message: `The file is larger than ${CLIENT_IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into smaller files`,
          });
        }
        throw error;
      }
      try {
        const grid = await readSheet(file.filename, bytes);
        const fileName = (file.filename || 'clients.csv').slice(0, 200);
        return await stageImport(deps.db, caller.scope, fileName, grid, caller.meta);
      } catch (error) {
        return sendError(reply, error);
      }
    });
  });

  app.get<{ Params: { id: string } }>('/api/clients/import/:id/errors.csv', async (req, reply) => {
    const caller = await staffRouteScope(deps.staffAuth, req, reply, 'clients.create');
    if (!caller) return reply;
    if (!UUID.test(req.params.id))
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Import not found' });
    const batches = unimportedRows(deps.db, caller.scope, req.params.id);
    // The first batch proves the import is the caller's before any byte of CSV is sent.
    let first: IteratorResult<Awaited<ReturnType<typeof batches.next>>['value']>;
    try {
      first = await batches.next();
    } catch (error) {
      return sendError(reply, error);
    }
    const headers = [
      'Import row',
      'Import result',
      'Import problems',
      ...IMPORT_FIELDS.map((f) => FIELD_HEADERS[f]),
    ];
    const csv = csvWriter(headers);
    const source = Readable.from(
      (async function* () {
        for (let next = first; !next.done; next = await batches.next()) {
          for (const row of next.value ?? []) {
            yield [
              String(row.rowNo),
              row.status === 'duplicate' ? 'Duplicate' : 'Error',
              messagesText(row.messages as never),
              ...IMPORT_FIELDS.map((f) => row.values[f] ?? ''),
            ];
          }
        }
      })(),
    );
    reply
      .type('text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${safeFileName(`import-problems-${req.params.id.slice(0, 8)}`)}.csv"`,
      )
      .header('cache-control', 'no-store');
    pipeline(source, csv).catch((err) => req.log.error({ err }, 'import errors export failed'));
    return reply.send(csv);
  });
}
