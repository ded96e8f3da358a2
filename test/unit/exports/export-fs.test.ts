import { promises as fs } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createEventHub } from '../../../main/services/events'
import type { ExportFs } from '../../../main/services/exports/fs'
import { createExportJobHistory, type ExportRecord } from '../../../main/services/exports/job-history'
import { queuedRecord } from '../../../main/services/exports/job'
import { createExportService } from '../../../main/services/exports/jobs'
import { createNotices } from '../../../main/services/notices'
import { supplyCsvOrder } from '../../support/export-orders'
import { temporaryFolder } from '../../support/services'

/**
 * The exports folder reaches the disk through one port (exports/fs.ts): every call a job, its
 * recovery or a finished file's actions make can be replaced by a test, not only the save's.
 */
async function serviceWith(records: ExportRecord[], replaced: Partial<ExportFs>) {
  const folder = await temporaryFolder('adops-export-fs-')
  const historyFile = path.join(folder, 'history.json')
  await fs.writeFile(historyFile, JSON.stringify({ jobs: records }))
  return createExportService({
    reportingOf: () => Promise.reject(new Error('not used')),
    infoOf: () => Promise.reject(new Error('not used')),
    presetOf: () => Promise.reject(new Error('not used')),
    dialog: { chooseSavePath: async () => null },
    jobHistory: createExportJobHistory(historyFile, createNotices()),
    events: createEventHub(),
    notices: createNotices(),
    fs: replaced,
  })
}

function record(state: ExportRecord['state'], target: string): ExportRecord {
  const queued = queuedRecord(supplyCsvOrder(target), new Date('2026-11-25T10:00:00.000Z'))
  return { ...queued, state, startedAt: queued.createdAt }
}

describe('the exports file system port', () => {
  it('recovery sweeps a quit’s temporary files through the port', async () => {
    const target = path.join('/nowhere', 'report.csv')
    const removed: string[] = []
    const service = await serviceWith([record('running', target)], {
      readdir: (async () => ['.report.csv.0123456789ab.tmp', 'report.csv', '.other.csv.0123456789ab.tmp']) as unknown as ExportFs['readdir'],
      rm: async (file) => void removed.push(String(file)),
    })
    await service.recover()
    expect(removed).toEqual([path.join('/nowhere', '.report.csv.0123456789ab.tmp')])
    expect((await service.list())[0]).toMatchObject({ state: 'interrupted' })
  })

  it('a finished file is checked and previewed through the port', async () => {
    const done = { ...record('done', path.join('/nowhere', 'report.csv')), endedAt: '2026-11-25T10:01:00.000Z' }
    const service = await serviceWith([done], {
      stat: (async () => ({ isFile: () => true })) as unknown as ExportFs['stat'],
      createReadStream: (() => Readable.from([Buffer.from('name,imps\nAcme,12\n')])) as unknown as ExportFs['createReadStream'],
    })
    expect(await service.preview(done.id)).toEqual({ fileName: 'report.csv', columns: ['name', 'imps'], rows: [['Acme', '12']], more: false, notes: [] })

    const gone = await serviceWith([done], {
      stat: (() => Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))) as unknown as ExportFs['stat'],
    })
    await expect(gone.preview(done.id)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('moved or deleted') })
  })
})
