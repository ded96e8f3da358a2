/**
 * The test files that run in a module graph of their own (test/vitest.config.ts): they mock
 * modules or stub globals, which would leak into every file after them in a shared graph. Every
 * other test file, unit and integration alike, shares one module graph per worker, which on the
 * 2-core machine cut the integration files' CPU time from about 200 s to about 115 s (the
 * modules imported once per worker instead of once per file).
 * test/unit/lint/shared-module-graph.test.ts keeps this list true. (A .mjs file: vitest's config
 * loader imports it as it is.)
 */
export const ISOLATED_TEST_FILES = [
  'test/integration/build/cli-undici.test.ts',
  'test/integration/build/web-host-start.test.ts',
  'test/integration/wiring/runtime-lifetime.test.ts',
  'test/integration/wiring/runtime-start-failure.test.ts',
]
