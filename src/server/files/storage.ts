import type { TConfig } from '../config';
import type { TStorage } from './driver';
import { createLocalStorage } from './local';

export type { TStorage } from './driver';

export async function createStorage(config: Pick<TConfig, 'storage'>): Promise<TStorage> {
  if (config.storage.driver === 's3') {
    // Loaded only when configured: the SDK is heavy and a local install never needs it.
    const { createS3Storage } = await import('./s3');
    return createS3Storage(config.storage.s3);
  }
  return createLocalStorage(config.storage.localDir);
}
