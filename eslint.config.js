// @ts-check
/**
 * Lint: correctness rules (typescript-eslint, eslint-plugin-vue) and the house's layer rules.
 * Formatting is Prettier's job (`npm run format`), so no stylistic rule lives here.
 *
 * The layer rules are the architecture in docs/architecture.md written so CI can refuse a wrong-way
 * import: common/ imports nothing but itself (every layer may import it, but the demo backend
 * keeps its own copies); the contract imports nothing of main or the renderer; the renderer never imports
 * main (nor Node); main/services never import Electron, handlers, the CLI, the hosts or the
 * demo backend; the demo backend never imports the services or the contract.
 */
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import vueParser from 'vue-eslint-parser'
import globals from 'globals'

/** The files Vue's lint rules read. */
const vueFiles = ['renderer/**/*.ts', 'renderer/**/*.vue', 'test/unit/renderer/**/*.ts']

/** @param {string[]} groups @param {string} message */
const forbid = (groups, message) => ({ group: groups, message })

/** @param {Array<ReturnType<typeof forbid> | { regex: string, message: string }>} patterns @param {string[]} [paths] */
const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': [
    'error',
    { patterns, paths: paths.map((name) => ({ name, message: `${name} is not allowed in this layer (see docs/architecture.md, "Rules of the house").` })) },
  ],
})

export const layerRules = [
  {
    // Below everything: the platform's rules written once (limits, time keys, byte counts), pure
    // TypeScript that main, preload, the renderer and the tests all import. No runtime's API.
    files: ['common/**/*.ts'],
    rules: restrict([
      {
        // Anything but a sibling file (`./limits`): packages, `node:*`, aliases and `../` alike.
        regex: '^(?!\\./[^/]+$)',
        message: 'common/ is the runtime-neutral bottom layer: it imports only its own files (no Node, DOM, Electron, Vue, zod, contract, main or renderer).',
      },
    ]),
  },
  {
    // A folder of common/ (common/charts/, common/pivot/): its siblings, common/'s own root files
    // (`../lines`) and the files of a sibling folder (`../pivot/series-records`), never further out.
    files: ['common/*/**/*.ts'],
    rules: restrict([
      {
        regex: '^(?!(\\./[^/]+|\\.\\./([^/.][^/]*/)?[^/.][^/]*)$)',
        message: 'common/ is the runtime-neutral bottom layer: it imports only its own files (no Node, DOM, Electron, Vue, zod, contract, main or renderer).',
      },
    ]),
  },
  {
    files: ['preload/contract/**/*.ts'],
    rules: restrict(
      [
        {
          // One pattern, so one message per import: main, the renderer, the alias, and any way
          // out of its folder except into common/ (`../../common/limits`).
          regex: '^(@contract$|\\.\\./(?!\\.\\./common/[^/]+$)|.*/(main|renderer)/)',
          message: 'The contract is the bottom layer above common/: it imports only zod, common/ and its own files.',
        },
      ],
      ['electron'],
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.vue'],
    rules: restrict(
      [
        forbid(['**/main/**', 'node:*'], 'The renderer talks to main through window.api only; it never imports main or Node.'),
        {
          regex: '^@vicons/ionicons5$',
          message: "Import each icon from its own file (`@vicons/ionicons5/es/AddOutline`): the package's index makes every type check read 1,333 icons.",
        },
      ],
      ['electron', 'fs', 'path', 'child_process'],
    ),
  },
  {
    files: ['main/services/**/*.ts'],
    rules: restrict(
      [
        forbid(
          ['**/electron/**', '**/handlers/**', '**/cli/**', '**/cli', '**/sandbox/**', '**/sandbox', '**/hosts/**'],
          'main/services is plain Node: it never imports Electron adapters, handlers, the CLI, the hosts or the demo backend; pass what it needs in.',
        ),
      ],
      ['electron'],
    ),
  },
  {
    files: ['main/sandbox/**/*.ts'],
    rules: restrict(
      [
        forbid(
          ['**/services/**', '**/preload/**', '@contract', '**/handlers/**', '**/electron/**', '**/common/**', '**/common'],
          "The demo backend stands alone, like a real platform: it never imports the app's services, contract or common/ (its own copies are checked against common/ by differential tests).",
        ),
      ],
      ['electron'],
    ),
  },
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test/artifacts/**', 'test-results/**', 'playwright-report/**', 'test/unit/lint/fixtures/**'] },
  ...tseslint.configs.recommended,
  // Vue's rules where Vue is used (the renderer and its tests): over main, the demo backend and
  // the other tests they found nothing and cost a quarter of lint's rule time.
  ...vue.configs['flat/essential'].map((config) => (config.files === undefined && config.name !== 'vue/base/setup' ? { ...config, files: vueFiles } : config)),
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' } },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Unused names are the compilers' job (noUnusedLocals and noUnusedParameters in each
      // tsconfig; vue-tsc sees what a template uses): the same finding here took over half of
      // lint's time (18 of 31 s).
      '@typescript-eslint/no-unused-vars': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      // `x == null` is the one loose comparison we allow: it means null or undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  { files: vueFiles, rules: { 'vue/multi-word-component-names': 'off' } },
  {
    // Plain JavaScript (build scripts, configs) has no compiler to find unused names: the rule stays here.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  ...layerRules,
)
