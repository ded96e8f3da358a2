/** Types of test/dom-files.mjs. */
export function declaredEnvironment(source: string): string | null
export function testFiles(folder: string): string[]
export const DOM_TEST_FILES: string[]
