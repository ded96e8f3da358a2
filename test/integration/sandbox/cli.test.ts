import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { spawnTsx } from '../../support/child-process'

/** The sandbox CLI as a process. */
const run = (args: string[]) => spawnTsx('main/sandbox/cli.ts', args)

describe('sandbox CLI', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints one JSON line, serves, and exits 0 on ${signal}`, async () => {
      const cli = run(['--port', '0', '--seed', '7', '--token-ttl', '60'])
      try {
        const info = await cli.json<Record<string, string>>()
        const text = cli.stdout()
        expect(Object.keys(info).sort()).toEqual(['auth_url', 'base_url', 'password', 'permanent_token', 'report_url', 'service_id', 'username', 'viewer_password', 'viewer_username'])
        expect(info['base_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/workflow\/v1$/)
        const token = await request(`${info['auth_url'] ?? ''}/oauth2/token/`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=password&username=demo&password=demo&scope=service_id%3Ddemo',
        })
        expect(((await token.body.json()) as { expires_in: number }).expires_in).toBe(60)
        expect(await cli.stop(signal)).toBe(0)
        expect(cli.stdout()).toBe(text)
        expect(cli.stdout().split('\n').filter((line) => line !== '')).toHaveLength(1)
      } finally {
        cli.child.kill('SIGKILL')
      }
    })
  }

  it('exits 2 with one clear error line on bad arguments', async () => {
    for (const args of [['--scale', 'huge'], ['--port', 'abc'], ['--colour', 'blue'], ['--seed']]) {
      const cli = run(args)
      expect(await cli.exit, args.join(' ')).toBe(2)
      expect(cli.stdout()).toBe('')
      expect(cli.stderr()).toMatch(/^sandbox: .+\n/)
    }
  })
})
