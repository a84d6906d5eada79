import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('defaults to the embedded setup on port 3000 under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.mail.outboxDir).toBe(`${config.dataDir}/mail`);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.web).toEqual({
      productionHost: undefined,
      posthog: undefined,
      gtmId: undefined,
      chat: undefined,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT: /],
    [{ GTM_ID: 'UA-1234' }, 'Invalid configuration: GTM_ID: GTM_ID must match GTM-[0-9A-Z]+'],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL: /],
    [{ PUBLIC_URL: 'example.com' }, 'Invalid configuration: PUBLIC_URL: PUBLIC_URL must be an absolute URL'],
    [{ IDP_USER_POOL_ID: 'nounderscore' }, /^Invalid configuration: IDP_USER_POOL_ID: .*region_suffix/],
    [{ IDP_USER_POOL_ID: `eu-west-1_${'a'.repeat(50)}` }, /at most 55 characters/],
    [{ STORAGE_DRIVER: 's3' }, 'Invalid configuration: S3_BUCKET: required when STORAGE_DRIVER is s3'],
    [{ DATABASE_POOL_MAX: '0' }, /^Invalid configuration: DATABASE_POOL_MAX: /],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }, /^Invalid configuration: DATABASE_STATEMENT_TIMEOUT_MS: /],
    [
      { REDIS_URL: 'localhost:6379' },
      'Invalid configuration: REDIS_URL: REDIS_URL must start with redis:// or rediss://',
    ],
  ])('stops with one line naming the variable for %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the pool size, statement timeout, Redis and shared files', () => {
    expect(loadConfig({}).pool).toEqual({ max: 10, statementTimeoutMs: 0 });
    const config = loadConfig({
      DATABASE_POOL_MAX: '25',
      DATABASE_STATEMENT_TIMEOUT_MS: '30000',
      REDIS_URL: 'redis://127.0.0.1:6379',
      FILES_SHARED: 'true',
    });
    expect(config.pool).toEqual({ max: 25, statementTimeoutMs: 30_000 });
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.storage.filesShared).toBe(true);
    expect(loadConfig({}).storage.filesShared).toBe(false);
  });

  it('TRUST_PROXY takes a hop count or proxy addresses, never "trust everything"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
    ]);
    for (const value of ['true', 'TRUE', 'yes', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY: .*number of proxies .* \(e\.g\. 1 behind one load balancer\)/,
      );
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(
      /TRUST_PROXY: "10.0.0.0\/40" is not an address/,
    );
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY: /);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ GTM_ID: '', DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });
});
