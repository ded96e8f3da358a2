/** A mistake in how the command was typed: exit code 2, and the message says how to fix it. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: string | null = null,
  ) {
    super(message)
    this.name = 'UsageError'
  }
}
