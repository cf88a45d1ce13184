export * from './features.js';
export * from './hand-assessment.js';
