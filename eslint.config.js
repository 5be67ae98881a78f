// One type-aware lint configuration for every package and app.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const apps = { server: '@topup/server', worker: '@topup/worker-app' };

function importsOf(app, message) {
  return [
    { group: [apps[app], `${apps[app]}/*`], message },
    { regex: `^(\\.\\./)+(apps/)?${app}/`, message },
  ];
}

function dependencyDirection() {
  const names = Object.keys(apps);
  return [
    {
      files: ['packages/**/*.ts', 'packages/**/*.mjs'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: names.flatMap((app) => [apps[app], `${apps[app]}/*`]),
                message: 'packages never import apps: move what both need into a package',
              },
              { regex: '^(\\.\\./)+apps/', message: 'packages never import apps' },
            ],
          },
        ],
      },
    },
    ...names.map((app) => ({
      files: [`apps/${app}/**/*.ts`, `apps/${app}/**/*.mjs`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: names
              .filter((other) => other !== app)
              .flatMap((other) => importsOf(other, 'no app imports another app: share it through a package')),
          },
        ],
      },
    })),
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'docs/**',
      // The doc comments' @example blocks, extracted for the typecheck by scripts/doc-examples.mjs.
      '**/.doc-examples/**',
      '**/*.config.ts',
      '**/*.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Dependencies run one way: apps import packages; packages never import apps; no app imports another.
  // Each app is named both by its package name and by a relative path that leaves its own folder.
  ...dependencyDirection(),
  {
    // Plain JavaScript entry points (the CLI's executable, run before tsx is registered) are in no
    // TypeScript project, so only the rules that need no types apply to them.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
);
