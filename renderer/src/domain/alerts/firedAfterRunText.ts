/** "Publishers watch ran: 2 alerts fired.": what a preset's run tells once its alerts arrived. */
export function firedAfterRunText(preset: string, fired: number): string {
  return `"${preset}" ran: ${fired} alert${fired === 1 ? '' : 's'} fired.`
}
