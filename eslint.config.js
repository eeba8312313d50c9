// The JavaScript habits npm test checks (build-scripts/lint.sh): ESLint's
// recommended rules, and the globals each folder's code runs with.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/', 'web/dist/', 'node_modules/', 'test-artifacts/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      'prefer-const': 'error',
      'no-var': 'error',
    },
  },
  // The facade runs in pages, workers and Node alike.
  { files: ['web/src/**/*.js'], languageOptions: { globals: { ...globals.browser, ...globals.worker, ...globals.node } } },
  { files: ['web/page/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['web/serve.js', 'bench/**/*.js', 'fuzz/**/*.js', 'tests/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: globals.node } },
  // Tests hand functions to the page (page.evaluate): they run there.
  { files: ['tests/e2e/**/*.js', 'bench/page.js'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
