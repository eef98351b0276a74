import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', '.astro/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'drizzle/meta/', '.bench-builds/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        window: 'readonly',
        document: 'readonly',
        localStorage: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Islands and client stores run in the browser: they must never reach server code (docs/design.md section 3).
    files: ['src/components/**/*.tsx', 'src/stores/**/*.ts', 'src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/server', '**/runtime/**', '**/runtime'], message: 'Islands, stores and src/lib must not import server code.' },
            { group: ['node:*'], message: 'Browser code must not import Node built-ins.' },
          ],
          paths: [
            {
              name: 'react',
              importNames: ['useId'],
              message:
                'Islands are server-rendered with renderToString and no id prefix, so a useId() rendered on the server does not match the hydrated one (docs/decisions/151). Use a fixed id, or useId only in parts first rendered in the browser.',
            },
          ],
        },
      ],
    },
  },
);
