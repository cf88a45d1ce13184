export * from './reasons.js';
export * from './review.js';
