/**
 * Host names as the platform accepts them (`advertiser_domains`): labels of letters, digits and
 * hyphens, a letter TLD. Written once for the entity form and the import planner.
 */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i

export function isValidDomain(text: string): boolean {
  return DOMAIN.test(text.trim())
}

/** Why a domain is refused, or null when it is fine. */
export function domainProblem(text: string): string | null {
  const value = text.trim()
  if (value === '') return 'Enter a domain'
  if (/^[a-z]+:\/\//i.test(value) || value.includes('/')) return 'Enter the domain only, without http:// or a path (e.g. example.com)'
  if (/\s/.test(value)) return 'A domain cannot contain spaces'
  if (!isValidDomain(value)) return 'Not a valid domain name (e.g. shop.example.com)'
  return null
}
