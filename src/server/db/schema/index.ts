export * from './idp';
export * from './notifications';
export * from './org';
export * from './system-log';
