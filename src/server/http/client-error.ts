import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

// A request Node could not parse (headers or URL past its limit, a malformed one, a header timeout)
// never reaches Fastify's routes: this answers it. The connection cannot carry another request
// after it (the parser is left mid-message), so the answer says `Connection: close`, as Node's own
// does: Fastify's default left it out, and a client then sent its next request on the pooled
// connection it had just seen closed (ECONNRESET).

const ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Exceeded maximum allowed HTTP header size' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Client Timeout' },
};

export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  // Reset by the client, or already answered: nothing to say and no one to say it to.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = ANSWERS[error.code ?? ''] ?? { status: 400, message: 'Client Error' };
  const reason = http.STATUS_CODES[status] ?? 'Error';
  const body = JSON.stringify({ error: reason, message, statusCode: status });
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
