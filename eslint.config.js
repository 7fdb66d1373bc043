// Lint rules, including the package boundaries the architecture relies on:
// the builder never reaches the database, the HTTP framework or the control plane,
// and the site template's browser code never imports Node built-ins.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const serverOnly = ['mongoose', 'mongodb', 'koa', '@koa/*', 'koa-*', '@folio/control-plane', '@folio/control-plane/*'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/.cache/**', 'test-artifacts/**', '**/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['builder/**/*.ts', 'site-template/**/*.ts', 'site-template/**/*.tsx', 'builder/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: serverOnly, message: 'The builder and site template never import database, HTTP-server or control-plane code.' }] }],
    },
  },
  {
    files: ['control-plane/dashboard-app/**/*.ts', 'control-plane/dashboard-app/**/*.tsx'],
    ignores: ['control-plane/dashboard-app/vite.config.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', ...serverOnly, '../../src/*'], message: 'The dashboard runs in the browser: it reaches the server only through /dashboard/api.' }] }],
    },
  },
  {
    // The control plane uses the builder through its public entry points only; tests and
    // benchmarks may reach its internals through `@folio/builder/internal/*`.
    files: ['control-plane/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@folio/builder/internal/*'], message: 'Import the builder through @folio/builder or @folio/builder/worker-protocol.' }] }],
    },
  },
  {
    // The embedded database is a package of its own: bson, mingo and Node only.
    files: ['control-plane/embedded-mongo/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@folio/*', '../../src/*', '../../../*'], message: 'The embedded database imports nothing of the platform.' }] }],
    },
  },
  {
    files: ['site-template/src/client/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', ...serverOnly], message: 'Browser code cannot import Node built-ins or server code.' }] }],
    },
  },
);
