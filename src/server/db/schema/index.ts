export * from './idp';
export * from './org';
export * from './system-log';
