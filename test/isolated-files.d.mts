/** Types of test/isolated-files.mjs. */
export const ISOLATED_TEST_FILES: string[]
