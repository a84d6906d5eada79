import { createHmac } from 'node:crypto';
import type { TConfig } from '../config';

// What every instance of a deployment must agree on, and how a disagreement is said. Pure: the
// database side (membership.ts) reads what was recorded and which instances are live, and this
// decides. Messages name the setting and never hold a secret.

/** The constant each vault key signs for its fingerprint: the key itself never leaves the process. */
const FINGERPRINT_LABEL = 'practice deployment vault key fingerprint v1';

/** A keyed hash of a constant under the key: equal for equal keys, and says nothing of the key. */
export function vaultKeyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update(FINGERPRINT_LABEL).digest('base64url');
}

export const VAULT_KEY_SETTING = 'vault_key:';

/** The settings this instance would record, by name. */
export function settingsOf(config: Pick<TConfig, 'publicUrl' | 'storage' | 'vault'>): Map<string, string> {
  const settings = new Map<string, string>([
    ['public_url', config.publicUrl],
    ['storage_driver', config.storage.driver],
  ]);
  if (config.storage.driver === 's3') settings.set('s3_bucket', config.storage.s3.bucket ?? '');
  for (const { id, key } of config.vault.keys ?? []) {
    settings.set(`${VAULT_KEY_SETTING}${id}`, vaultKeyFingerprint(key));
  }
  return settings;
}

export type TPeer = {
  id: string;
  host: string;
  pid: number;
  storageDriver: string;
  filesDir: string | null;
  filesShared: boolean;
};

export type TVerdict =
  /** Start; record `record` (new or changed settings); say `warnings` in the log. */
  { ok: true; record: Map<string, string>; warnings: string[] } | { ok: false; message: string };

const who = (p: TPeer) => `${p.host} (pid ${p.pid})`;

/**
 * A vault key id whose fingerprint differs is always refused: what was sealed under that id cannot
 * be opened with this key, and what this instance sealed no other could open. The public URL and
 * the storage must match the live instances; with none live, this instance's settings become the
 * deployment's (an operator changing them stops every instance first), with a warning.
 */
export function decide(input: {
  mine: Map<string, string>;
  recorded: Map<string, string>;
  /** Other instances beating within the live window. */
  live: TPeer[];
  me: { host: string; filesDir: string | null; filesShared: boolean };
}): TVerdict {
  const { mine, recorded, live, me } = input;
  const record = new Map<string, string>();
  const warnings: string[] = [];
  for (const [name, value] of mine) {
    const before = recorded.get(name);
    if (before === value) continue;
    if (before === undefined) {
      record.set(name, value);
      continue;
    }
    if (name.startsWith(VAULT_KEY_SETTING)) {
      const id = name.slice(VAULT_KEY_SETTING.length);
      return {
        ok: false,
        message: `VAULT_KEYS: key "${id}" is not the key this deployment recorded under that id (its fingerprint differs). Every instance must have the same keys under the same ids; a new key needs a new id (README "Vault keys").`,
      };
    }
    const setting = SETTING_NAMES[name] ?? name;
    if (live.length) {
      return {
        ok: false,
        message: `${setting}: this instance has "${value}" but the running instances use "${before}" (${live.map(who).join(', ')}). Every instance must use the same ${setting}.`,
      };
    }
    record.set(name, value);
    warnings.push(
      `${setting} changed from "${before}" to "${value}" (no other instance is running): this is now the deployment's ${setting}`,
    );
  }
  if (mine.get('storage_driver') === 'local') {
    const elsewhere = live.filter(
      (p) => p.storageDriver === 'local' && !(p.host === me.host && p.filesDir === me.filesDir),
    );
    const unshared = elsewhere.filter((p) => !(me.filesShared && p.filesShared));
    if (unshared.length) {
      return {
        ok: false,
        message: `STORAGE_DRIVER: this instance keeps files on its own disk (local), and so does ${unshared.map(who).join(', ')}: files uploaded through one would be missing on the other. Use STORAGE_DRIVER=s3 for several instances, or, if DATA_DIR/files is one directory every instance mounts, set FILES_SHARED=true on each.`,
      };
    }
  }
  return { ok: true, record, warnings };
}

const SETTING_NAMES: Record<string, string> = {
  public_url: 'PUBLIC_URL',
  storage_driver: 'STORAGE_DRIVER',
  s3_bucket: 'S3_BUCKET',
};
