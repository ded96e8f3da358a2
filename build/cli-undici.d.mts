/** Types of build/cli-undici.mjs: undici's own, for the pieces it re-exports. */
import type { Agent as UndiciAgent, interceptors as undiciInterceptors } from 'undici'

export declare const Agent: typeof UndiciAgent
export declare const interceptors: { retry: typeof undiciInterceptors.retry }
