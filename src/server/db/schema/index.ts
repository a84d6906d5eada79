export * from './clients';
export * from './documents';
export * from './idp';
export * from './notifications';
export * from './org';
export * from './system-log';
export * from './work';
