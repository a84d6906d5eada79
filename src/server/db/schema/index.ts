export * from './client-imports';
export * from './clients';
export * from './idp';
export * from './notifications';
export * from './org';
export * from './system-log';
export * from './work';
