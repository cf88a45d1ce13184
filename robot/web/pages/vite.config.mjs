// Builds the dashboard and the virtual table into dist/web, which the node serves (no CDN).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: here('../../../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The questionnaire page bundles SurveyJS (about 1.5 MB, served from the node on the lab's network).
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      input: { index: here('index.html'), table: here('table.html'), questionnaire: here('questionnaire.html') },
    },
  },
});
