export { createWorkflowClient } from './client'
export type { WorkflowClient, WorkflowClientOptions, ListOptions, ListProgress, CallOptions } from './client'
export { isEntityKind, assertEntityKind, isEntityId, entitySchema, listEnvelopeSchema } from './entities'
export type { Entity, EntityId, ListEnvelope } from './entities'
