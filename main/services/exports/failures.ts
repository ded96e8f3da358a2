import path from 'node:path'
import { formatBytes } from '../../../common/format'
import { isAppError } from '../errors'
import { nameTooLong } from '../files/save-target'

// One way to write a byte count (common/format); jobs.ts and the command line import it from here.
export { formatBytes }

/**
 * Why an export failed, as the sentence the jobs panel shows. It reaches the page, so it names
 * the file and its folder by their base names only, never by path.
 */
export function exportFailure(error: unknown, filePath: string, bytes: number, answered = bytes > 0): string {
  const file = path.basename(filePath)
  const folder = path.basename(path.dirname(filePath))
  if (!isAppError(error))
    return `Something went wrong inside AdOps Desk while exporting ${file}; nothing was saved. Try again; if it keeps happening, restart the app.`
  if (error.code === 'storage') {
    const code = error.details?.errorCode
    if (code === 'ENOSPC' || code === 'EDQUOT')
      return `The disk is full: ${file} could not be written in ${folder}, and nothing was saved. Free some space, or choose another disk, and export again.`
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return `AdOps Desk may not write in the folder ${folder}; nothing was saved. Export again and choose another folder.`
    if (code === 'ENAMETOOLONG') return `${nameTooLong(file)} Nothing was saved.`
    if (code === 'ENOENT') return `The folder ${folder} is gone; nothing was saved. Export again and choose an existing folder.`
    return `${file} could not be written in ${folder}${typeof code === 'string' ? ` (${code})` : ''}; nothing was saved. Check the disk and export again.`
  }
  if ((error.code === 'network' || error.code === 'timeout') && (bytes > 0 || answered)) {
    return `The connection to the platform dropped after ${formatBytes(bytes)}; nothing was saved at ${file}. Check your network or VPN connection and export again.`
  }
  return error.message
}
