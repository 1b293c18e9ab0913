/**
 * A request that arrives as a form (the hosted booking page without JavaScript) checked against the
 * schema its JSON twin is checked against, with the same options and formats as the app's own
 * validator, and refused the same way: every offending field at once, each with its code.
 */
import type { TSchema } from '@sinclair/typebox'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { useServiceDateTime } from '../schemas/formats.js'
import { validationProblem } from './problems.js'
import type { ProblemError } from './problems.js'

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false })
addFormats.default(ajv)
useServiceDateTime(ajv)

/** Checks a body against a schema: the validation problem of its every offending field, or undefined when it fits. */
export function bodyCheck(schema: TSchema): (body: unknown) => ProblemError | undefined {
  const validate = ajv.compile(schema)
  return (body) => (validate(body) ? undefined : validationProblem(validate.errors ?? [], 'body'))
}
