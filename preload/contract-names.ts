/**
 * The contract's channel and event names, and nothing else of it: the build puts them in
 * (`__ADOPS_CONTRACT_NAMES__`, vite.config.ts, the preload and web-bridge builds) from the
 * contract itself, so the list is the contract's and the bridge carries no zod and no schema.
 * The bridge only names functions; main validates every input and output. The preload was
 * 300 KB of schemas to parse before the page's first script could run.
 */
import type { ContractNames } from './bridge'

declare const __ADOPS_CONTRACT_NAMES__: ContractNames

export const contractNames: ContractNames = __ADOPS_CONTRACT_NAMES__
