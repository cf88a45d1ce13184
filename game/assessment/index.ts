export * from './features.js';
export * from './hand-assessment.js';
export { FITTED_MODEL } from './fitted-model.js';
