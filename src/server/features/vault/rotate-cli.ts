// `npm run vault:rotate`: re-wraps every data key under the master keys (vault entries, the identity
// provider's TOTP keys, the server's keyed-hash key) with the current master key (the first of
// VAULT_KEYS, or the first line of DATA_DIR/vault.key). With PGlite, stop the server
// first: one process owns the data directory. See README "Vault keys".
import { ConfigError, loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { DirLockedError } from '../../db/dir-lock';
import { loadKeyring } from './keys';
import { rotateMasterKey } from './rotate';

async function main() {
  const config = loadConfig();
  const keyring = await loadKeyring(config.vault, { create: false });
  const database = await openDatabase(config);
  try {
    const result = await rotateMasterKey(database.db, keyring);
    console.log(`Re-wrapped ${result.rewrapped} data key(s) with the master key "${result.current}".`);
    for (const f of result.failed)
      console.error(`Could not re-wrap ${f.what} ${f.id} (key "${f.keyId}"): ${f.reason}`);
    const others = Object.entries(result.byKey).filter(([id]) => id !== result.current);
    if (others.length) {
      console.log(`Still under other keys: ${others.map(([id, n]) => `${id}: ${n}`).join(', ')}`);
      process.exitCode = 1;
    } else {
      console.log('Everything uses the current key: older keys can now be removed.');
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof DirLockedError ? error.message : error);
  process.exit(1);
});
