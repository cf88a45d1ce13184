// ESLint (flat config): the recommended rules of ESLint and typescript-eslint, without type
// information (fast). `npm run lint`, and in CI (.ci/run).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'test/.artifacts/', 'recordings/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Our convention for a value that has to be named but is not used: a leading underscore.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The dashboard's page runs in the browser.
    files: ['robot/web/pages/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
