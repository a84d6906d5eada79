import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import {
  CLIENT_IMPORT_MAX_BYTES,
  CLIENT_IMPORT_UPLOAD_PATH,
  FIELD_HEADERS,
  IMPORT_FIELDS,
} from '../../../domain/client-import';
import { requestMeta, routeStaffScope } from '../../auth';
import type { TDb } from '../../db/client';
import { csvWriter, safeFileName } from './csv';
import { readSheet } from './import-read';
import { messagesText, unimportedRows } from './import-rows';
import { stageImport } from './import-stage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /api/clients/import (multipart, one file, at most 10 MB): reads and checks the file and
 * answers the staged import's id for the preview. GET /api/clients/import/{id}/errors.csv: the rows
 * that did not go in, with the reasons, in the export's columns so the file can be fixed and
 * uploaded again. Plain routes because a file is neither a tRPC input nor a tRPC answer.
 */
export async function registerClientImportRoutes(app: FastifyInstance, deps: { db: TDb }) {
  // Encapsulated: multipart parsing exists for this route only.
  await app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: CLIENT_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 },
    });
    scoped.post(CLIENT_IMPORT_UPLOAD_PATH, { config: { auth: { staff: 'clients.create' } } }, async (req) => {
      const scope = routeStaffScope(req);
      const chooseFile = () =>
        new TRPCError({ code: 'BAD_REQUEST', message: 'Choose a CSV or Excel file to upload' });
      if (!req.isMultipart()) throw chooseFile();
      // Fields before the file are skipped; no file, a file part without a name, or a body that is
      // not well-formed multipart (no boundary, cut off) is "choose a file", never a 500.
      let file: Awaited<ReturnType<typeof req.file>>;
      let bytes: Buffer;
      try {
        file = await req.file();
        if (!file?.filename) {
          file?.file.resume();
          throw chooseFile();
        }
        bytes = await file.toBuffer();
      } catch (error) {
        if (error instanceof scoped.multipartErrors.RequestFileTooLargeError) {
          throw new TRPCError({
            code: 'PAYLOAD_TOO_LARGE',
            message: `The file is larger than ${CLIENT_IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into smaller files`,
          });
        }
        // Too many parts or files: the error handler answers 413.
        if (error instanceof TRPCError || (error as { statusCode?: number }).statusCode === 413) throw error;
        req.log.warn({ err: error }, 'client import: the upload could not be read');
        throw chooseFile();
      }
      const grid = await readSheet(file.filename, bytes);
      // The name is kept with the import: a NUL (which the database cannot hold) is dropped.
      const fileName = (file.filename.split('\u0000').join('') || 'clients.csv').slice(0, 200);
      return stageImport(deps.db, scope, fileName, grid, requestMeta(req));
    });
  });

  app.get<{ Params: { id: string } }>(
    '/api/clients/import/:id/errors.csv',
    { config: { auth: { staff: 'clients.create' }, link: 'clients.importErrors' } },
    async (req, reply) => {
      if (!UUID.test(req.params.id)) throw new TRPCError({ code: 'NOT_FOUND', message: 'Import not found' });
      const batches = unimportedRows(deps.db, routeStaffScope(req), req.params.id);
      // The first batch proves the import is the caller's before any byte of CSV is sent.
      const first = await batches.next();
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
    },
  );
}
