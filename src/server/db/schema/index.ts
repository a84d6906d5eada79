export * from './clients';
export * from './idp';
export * from './jobs';
export * from './notifications';
export * from './org';
export * from './reminders';
export * from './system-log';
export * from './work';
