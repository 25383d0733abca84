export * from './constants';
export * from './errors';
export * from './money';
export * from './schemas';
export * from './settings-defaults';
export * from './types';
