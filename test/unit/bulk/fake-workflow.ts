import type { Entity, EntityId } from '@contract'
import type { ApplyWorkflow } from '../../../main/services/bulk/apply-row'
import { AppError } from '../../../main/services/errors'
import { uncertainWrite } from '../../../main/services/workflow/uncertain-write'

/** A platform in memory: the writes it received, and hooks that fail a call before or after it takes effect. */
export interface FakeWorkflow extends ApplyWorkflow {
  entities: Map<string, Entity>
  calls: string[]
  /** Called before each call; throw to refuse it (a 429, say). */
  before?: (call: string) => void
  /** Called after a write took effect; throw to lose its answer. */
  after?: (call: string) => void
}

/** The client's error for an answer lost after sending (ECONNRESET), as the real client words it. */
export function lostAnswer(): unknown {
  return uncertainWrite(new AppError('network', 'The platform is offline or unreachable.', { errorCode: 'ECONNRESET' }))
}

export function throttled(seconds: number): AppError {
  return new AppError('throttled', `Wait ${seconds} seconds and try again.`, { httpStatus: 429, retryAfterSeconds: seconds })
}

export function createFakeWorkflow(initial: Entity[]): FakeWorkflow {
  let next = Math.max(0, ...initial.map((entity) => Number(entity.id))) + 1
  const fake: FakeWorkflow = {
    entities: new Map(initial.map((entity) => [String(entity.id), structuredClone(entity)])),
    calls: [],
    async *list() {
      fake.calls.push('list')
      fake.before?.('list')
      yield [...fake.entities.values()].map((entity) => structuredClone(entity))
    },
    async get(_kind: string, id: EntityId) {
      fake.calls.push(`get ${id}`)
      fake.before?.(`get ${id}`)
      const found = fake.entities.get(String(id))
      if (found === undefined) throw new AppError('not_found', 'Not found.')
      return structuredClone(found)
    },
    async create(_kind: string, entity: Record<string, unknown>) {
      fake.calls.push(`create ${String(entity.external_id)}`)
      fake.before?.(`create ${String(entity.external_id)}`)
      const created = { ...structuredClone(entity), id: next++ } as Entity
      fake.entities.set(String(created.id), created)
      fake.after?.(`create ${String(entity.external_id)}`)
      return structuredClone(created)
    },
    async update(_kind: string, id: EntityId, entity: Record<string, unknown>) {
      fake.calls.push(`update ${id}`)
      fake.before?.(`update ${id}`)
      fake.entities.set(String(id), structuredClone(entity) as Entity)
      fake.after?.(`update ${id}`)
    },
    async delete(_kind: string, id: EntityId) {
      fake.calls.push(`delete ${id}`)
      fake.before?.(`delete ${id}`)
      fake.entities.delete(String(id))
      fake.after?.(`delete ${id}`)
    },
  }
  return fake
}
