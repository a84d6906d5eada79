import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DirLockedError } from './db/dir-lock';
import { vaultKeyring } from './features/vault';

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  // The vault's key file is created (or its permissions refused) now, not at the first reveal.
  await vaultKeyring(config).catch(async (error) => {
    await database.close();
    throw error;
  });
  const { app } = await buildApp({ config, database });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish, then close the database so PGlite has flushed.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
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
