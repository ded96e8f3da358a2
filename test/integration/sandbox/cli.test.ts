import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { spawnTsx } from '../../support/child-process'

/** The sandbox CLI as a process (node with tsx's loader, so signals reach the sandbox itself). */
const run = (args: string[]) => spawnTsx('main/sandbox/cli.ts', args)

async function firstLine(read: () => string): Promise<string> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    const text = read()
    if (text.includes('\n')) return text
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('no line from the sandbox')
}

const WARNING = /^sandbox: warning: --host (\S+) is not a loopback address; other machines can reach this sandbox/

describe('sandbox CLI', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints one JSON line, serves, and exits 0 on ${signal}`, async () => {
      const cli = run(['--port', '0', '--seed', '7', '--token-ttl', '60'])
      try {
        const info = await cli.json<Record<string, string>>()
        const text = cli.stdout()
        expect(Object.keys(info).sort()).toEqual([
          'auth_url',
          'base_url',
          'password',
          'permanent_token',
          'report_url',
          'service_id',
          'username',
          'viewer_password',
          'viewer_username',
        ])
        expect(info['base_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/workflow\/v1$/)
        const token = await request(`${info['auth_url'] ?? ''}/oauth2/token/`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=password&username=demo&password=demo&scope=service_id%3Ddemo',
        })
        expect(((await token.body.json()) as { expires_in: number }).expires_in).toBe(60)
        expect(await cli.stop(signal)).toBe(0)
        expect(cli.stdout()).toBe(text)
        expect(
          cli
            .stdout()
            .split('\n')
            .filter((line) => line !== ''),
        ).toHaveLength(1)
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

  it('warns on standard error when --host is not a loopback address', async () => {
    // 192.0.2.1 is a documentation address no machine has: the warning comes before the bind fails.
    const cli = run(['--host', '192.0.2.1', '--port', '0'])
    try {
      const warning = await firstLine(cli.stderr)
      expect(warning).toMatch(WARNING)
      expect(warning).toContain('--host 192.0.2.1')
      expect(await cli.exit).toBe(1)
      expect(cli.stderr().split('\n')[1]).toMatch(/^sandbox: .*192\.0\.2\.1/)
      expect(cli.stdout()).toBe('')
    } finally {
      cli.child.kill('SIGKILL')
    }
  })

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`does not warn for the loopback --host ${host}`, async () => {
      const cli = run(['--host', host, '--port', '0'])
      try {
        const info = JSON.parse((await firstLine(cli.stdout)).trim()) as Record<string, string>
        expect(info['base_url']).toContain(`//${host}:`)
        cli.child.kill('SIGTERM')
        expect(await cli.exit).toBe(0)
        expect(cli.stderr()).toBe('')
      } finally {
        cli.child.kill('SIGKILL')
      }
    })
  }
})
