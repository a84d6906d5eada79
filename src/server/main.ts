import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DirLockedError } from './db/dir-lock';
import { trackUnusedConnections } from './http/connections';
import { listenHttps } from './http/https-listener';

async function main() {
  const config = loadConfig();
  // The rest of the server (its routes, features and their packages, most of its modules) loads
  // while the database opens: PGlite compiles its WebAssembly off the main thread meanwhile.
  const rest = Promise.all([import('./app'), import('./backup/socket'), import('./features/vault')]);
  rest.catch(() => {});
  // Beside the bundle, npm run build leaves a migrated empty PGlite database (scripts/build-server.mjs)
  // that a new data directory starts from; run from the sources, there is none and initdb runs.
  const database = await openDatabase(config, {
    pgliteTemplate: fileURLToPath(new URL('pglite-template.tar', import.meta.url)),
  });
  const [{ buildApp }, { startBackupSocket }, { vaultKeyring }] = await rest.catch(async (error) => {
    await database.close();
    throw error;
  });
  // PostgreSQL: settings every instance must share are checked against the deployment's before
  // anything is served, and this instance registers itself (instances/membership.ts). Loaded only
  // then: embedded PGlite is one process, with nothing to agree on.
  const membership =
    database.engine === 'postgres'
      ? await import('./instances')
          .then(({ joinDeployment }) => joinDeployment(database, config))
          .catch(async (error) => {
            await database.close();
            throw error;
          })
      : null;
  // The vault's key file is created (or its permissions refused) now, not at the first reveal;
  // its write and fsync run while the app is put together.
  const keyring = vaultKeyring(config);
  keyring.catch(() => {});
  // Without SMTP_URL, each mail's links are also printed as plain lines a person can click.
  const { app, storage, stopServing } = await buildApp({
    config,
    database,
    printMail: (lines) => process.stdout.write(lines),
  });
  const connections = trackUnusedConnections(app.server);
  for (const warning of membership?.warnings ?? []) app.log.warn(warning);
  await keyring.catch(async (error) => {
    await app.close();
    await database.close();
    throw error;
  });
  // PGlite: `npm run backup` asks this process for the archive (the directory is ours while we run).
  const backupSocket =
    database.engine === 'pglite'
      ? await startBackupSocket({ config, database, storage, log: app.log }).catch((error) => {
          // A socket it cannot open (a DATA_DIR path past the ~100 bytes a Unix socket allows) is
          // no reason not to serve: the backup command then says it cannot reach the server.
          app.log.warn(
            { err: error },
            'npm run backup cannot reach this server (no backup socket in DATA_DIR)',
          );
          return null;
        })
      : null;

  let closing = false;
  /**
   * The clean stop (SIGTERM/SIGINT). /api/ready answers 503 from the first moment. Stop accepting
   * and close idle keep-alive connections, and those that never sent a request, at once
   * (a request arriving on one meanwhile answers 503 with `Connection: close`); requests in flight
   * get `shutdownGraceMs` to finish, after which their connections are cut: a long upload is
   * abandoned and its partial file removed (`storage.settle()` waits for that). Then the job worker
   * has stopped (finishing the jobs in hand: an onClose hook), the database closes (PGlite
   * flushes) and its directory lock goes. Exit 0; only a stop that hangs past the grace period by
   * another 5 s is forced, with 1.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // First of all: a load balancer's next readiness probe is told to send no more.
    stopServing();
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown did not finish in time: forcing exit');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    force.unref();
    // A connection whose request finishes during the stop is idle from then on: close it too; and
    // one that never sent a byte (a browser's spare) is closed at once, as Node does not.
    const closeQuiet = () => {
      app.server.closeIdleConnections();
      connections.closeUnused();
    };
    closeQuiet();
    const idle = setInterval(closeQuiet, 100);
    const cut = setTimeout(() => {
      app.log.warn('grace period over: cutting the connections of requests still running');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    try {
      await app.close();
      clearInterval(idle);
      clearTimeout(cut);
      await storage.settle();
      await backupSocket?.close();
      await membership?.leave();
      await database.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await listenHttps(app, config);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  membership?.listening(`${config.host}:${port}`, app.log);
  app.log.info(`Practice is running at http://localhost:${port} (database: ${database.engine})`);
  if (process.stdout.isTTY || process.env.npm_lifecycle_event === 'start') {
    console.log(`\n  Practice is running at http://localhost:${port}\n`);
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
