export * from './reasons.js';
export * from './review.js';
export * from './warnings.js';
