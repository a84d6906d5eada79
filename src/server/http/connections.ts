import type { Server } from 'node:http';
import type { Socket } from 'node:net';

// Node counts a connection as busy from the moment it is accepted until its first request has been
// answered (a request may be on its way), so neither `server.close()` nor `closeIdleConnections()`
// closes one that never sent a byte. Browsers open such spare connections on a page load: after a
// burst of sign-ins and page loads, one of them held a SIGTERM for the whole grace period.

/** Tracks `server`'s connections that have not sent a byte yet, to close them on a stop. */
export function trackUnusedConnections(server: Server) {
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  // From its first request on, a connection is Node's to close when it is idle.
  server.on('request', (req: { socket: Socket }) => unused.delete(req.socket));
  return {
    /**
     * Closes the connections still silent. One with part of a request in (bytes read, no request
     * yet) is left to finish it: it is answered 503 with `Connection: close`.
     */
    closeUnused() {
      // Two turns of the event loop first: bytes that reached the kernel before the signal (a
      // probe's request on its way) are read by the next poll, so a busy server that had not read
      // them yet does not take such a connection for a silent one.
      setImmediate(() =>
        setImmediate(() => {
          for (const socket of unused) {
            if (socket.bytesRead === 0) socket.destroy();
          }
        }),
      );
    },
  };
}
