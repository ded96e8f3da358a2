import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { hostWarning, parseArguments } from '../../../main/sandbox/cli-arguments'
import { spawnBuilt } from '../../support/child-process'

/** The sandbox CLI as a process: its build (out/web/sandbox.js, what the end-to-end tests start), in Node itself, so signals reach it. */
const run = (args: string[]) => spawnBuilt('out/web/sandbox.js', args)

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

  it('reads its arguments in-process: each bad one is a sentence naming it', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--scale', 'huge'], /--scale must be small or large, got 'huge'/],
      [['--port', 'abc'], /--port needs an integer from 0 to 65535, got 'abc'/],
      [['--colour', 'blue'], /unknown argument '--colour'/],
      [['--seed'], /--seed needs an integer from 0 to 4294967295, got nothing/],
    ]
    for (const [args, sentence] of cases) expect(() => parseArguments(args), args.join(' ')).toThrow(sentence)
    expect(parseArguments(['--port=0', '--seed', '7', '--scale', 'large', '--token-ttl', '60', '--host', 'localhost'])).toEqual({
      port: 0,
      seed: 7,
      scale: 'large',
      tokenTtlSeconds: 60,
      host: 'localhost',
    })
  })

  it('warns about a --host other machines can reach, and about no loopback address', () => {
    expect(hostWarning('192.0.2.1')).toMatch(WARNING)
    for (const host of ['127.0.0.1', 'localhost', '::1', undefined]) expect(hostWarning(host), String(host)).toBeNull()
  })

  // One process each for what only a process shows: the exit code and where the lines go.
  it('exits 2 with one clear error line on a bad argument', async () => {
    const cli = run(['--scale', 'huge'])
    expect(await cli.exit).toBe(2)
    expect(cli.stdout()).toBe('')
    expect(cli.stderr()).toMatch(/^sandbox: .+\n/)
  })

  it('warns on standard error when --host is not a loopback address', async () => {
    // 192.0.2.1 is a documentation address no machine has: the warning comes before the bind fails.
    const cli = run(['--host', '192.0.2.1', '--port', '0'])
    try {
      expect(await cli.exit).toBe(1)
      const [warning, failure] = cli.stderr().split('\n')
      expect(warning).toMatch(WARNING)
      expect(warning).toContain('--host 192.0.2.1')
      expect(failure).toMatch(/^sandbox: .*192\.0\.2\.1/)
      expect(cli.stdout()).toBe('')
    } finally {
      cli.child.kill('SIGKILL')
    }
  })
})
