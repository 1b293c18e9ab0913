/** The schemas' formats where the service reads them more strictly than ajv-formats does. */
import type { Ajv } from 'ajv'
import { isDateTime } from '../domain/date-time.js'

/**
 * `date-time` is what src/domain/date-time.ts can turn into an instant; ajv-formats would also
 * pass leap seconds and offsets without minutes, which no rule could then read. Added after
 * ajv-formats, so it replaces that definition.
 */
export function useServiceDateTime(ajv: Ajv): Ajv {
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime })
  return ajv
}
