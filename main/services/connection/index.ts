export { createConnection } from './connection'
export type { Connection, ConnectionOptions, ConnectionTest, ApiCheck, TestConnectionOptions } from './connection'
export { startDemoWorkspace, DEMO_REPORT_TARGET } from './demo'
export type { DemoWorkspace, StartSandbox, RunningSandbox, SandboxInfo } from './demo'
