// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const engineImports = {
  patterns: [
    {
      group: ['@aws-sdk/*', '@duckdb/*'],
      message: 'AWS SDK and DuckDB are imported only under lib/adapters/ (ports and adapters, see ARCHITECTURE.md).',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.esbuild/',
      '.serverless/',
      '.data/',
      '.scratch/',
      'bench/results/',
      'coverage/',
      'lib/cli/dist/',
      'lib/playground/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's globals from the `globals` package (the hand-written list missed some).
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,mts,js,mjs}'],
    ignores: ['lib/adapters/**', 'test/**', 'bench/**', 'infra/**'],
    rules: { 'no-restricted-imports': ['error', engineImports] },
  },
  {
    // Only config.ts reads the environment (STYLE.md: config parsed once with zod).
    files: ['lib/**/*.ts', 'functions/**/*.ts'],
    ignores: ['lib/core/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through lib/core/config.ts.' },
      ],
    },
  },
  {
    // The playground's page code runs in the browser (its own tsconfig there adds the DOM types).
    files: ['lib/playground/web/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
