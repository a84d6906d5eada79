// The vault feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.

// For backups and restores (src/server/backup): which keys seal the data, and keys given by hand.
export { keyringOf, type TKeyring } from './crypto';
export { keyFileKeys, loadKeyring, parseKeyFile, vaultKeyring } from './keys';
export { rotateMasterKey } from './rotate';
export { vaultRouter } from './router';
export { secretBox, signingKeyContext, type TSecretBox } from './secret-box';
export { openEntryPassword } from './service';
