import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from '../config';

// A laptop's HTTPS: Amplify's hosted sign-in always builds https:// addresses for the OAuth domain.
// A self-signed certificate for the public URL's host (and localhost) is made at first start and
// kept in DATA_DIR/tls; the browser asks once to trust it. Production puts TLS in front instead.

async function certificate(dir: string, host: string): Promise<{ key: string; cert: string }> {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  if (fs.existsSync(keyFile) && fs.existsSync(certFile))
    return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
  const names = [...new Set([host, 'localhost'])];
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 825 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          ...names.map((value) => ({ type: 2 as const, value })),
          { type: 7 as const, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
  fs.writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert };
}

/**
 * Serves the same app over HTTPS on config.https.port; closed with the app. Call it before
 * `app.listen`: Fastify takes no hook once it has started.
 */
export async function listenHttps(app: FastifyInstance, config: TConfig): Promise<https.Server | null> {
  if (!config.https) return null;
  const { port, certDir } = config.https;
  const server = https.createServer(
    await certificate(certDir, new URL(config.publicUrl).hostname),
    (req, res) => app.routing(req, res),
  );
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  await app.ready();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.host, resolve);
  });
  app.log.info(`HTTPS (self-signed, ${path.join(certDir, 'cert.pem')}) at ${config.https.origin}`);
  return server;
}
