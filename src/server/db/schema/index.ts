export * from './org';
export * from './system-log';
export * from './idp';
