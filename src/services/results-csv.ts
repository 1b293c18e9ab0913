/**
 * A competition's results from a CSV file (docs/dashboard.md, "Results from a CSV file"): every
 * row is checked — the file's own columns here, then the import's rules — before anything is
 * written, and one bad row refuses the whole file with each bad row named by its line.
 */
import { randomUUID } from 'node:crypto'
import { CsvError, parse } from 'csv-parse/sync'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { listGroups, listMembers } from '../db/repositories/content.js'
import type { Database } from '../db/schema.js'
import { InvalidInput } from '../domain/errors.js'
import { audit } from './admins.js'
import type { Actor } from './admins.js'
import { importProblems, importWithin } from './import.js'

export const RESULT_COLUMNS = ['member', 'group', 'competition_name', 'discipline', 'placement', 'points', 'competition_date'] as const
const REQUIRED = new Set(['member', 'group', 'competition_name'])
/** More rows than any competition has; a file beyond it is refused before its rows are read. */
export const MAX_RESULT_ROWS = 5000

export interface CsvResultRow {
  readonly line: number
  readonly member_id: string
  readonly member_name: string
  readonly group_id: string
  readonly group_name: string
  readonly competition_name: string
  readonly discipline: string | null
  readonly placement: string | null
  readonly points: number | null
  readonly competition_date: string | null
}

/** A line of the file and what is wrong with it (`line` 1 is the header). */
export interface RowProblem {
  readonly line: number
  readonly reason: string
}

/** The file was refused; `rows` names every bad row. */
export class RowsRejected extends InvalidInput {
  constructor(readonly rows: readonly RowProblem[]) {
    super(`the file was rejected, nothing was saved: ${String(new Set(rows.map((row) => row.line)).size)} row(s) have problems`,
      rows.map((row) => `line ${String(row.line)}: ${row.reason}`))
    this.name = 'RowsRejected'
  }
}

/**
 * Checks the file; unless `dryRun`, saves every row as a new result, all or nothing. Returns the
 * rows as they are (or would be) saved; throws RowsRejected naming every bad row.
 */
export async function importResultsCsv(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  csv: string,
  options: { readonly dryRun: boolean, readonly actor: Actor },
): Promise<CsvResultRow[]> {
  const records = readCsv(csv)
  const [members, groups] = await Promise.all([listMembers(db, clubId), listGroups(db, clubId)])
  const memberBy = new Map<string, { id: string, name: string }>()
  for (const member of members) {
    memberBy.set(member.id.toLowerCase(), member)
    memberBy.set(member.email.toLowerCase(), member)
  }
  const groupBy = new Map<string, { id: string, name: string }>()
  for (const group of groups) {
    groupBy.set(group.id.toLowerCase(), group)
    if (!groupBy.has(group.name.trim().toLowerCase())) groupBy.set(group.name.trim().toLowerCase(), group)
  }

  const problems: RowProblem[] = []
  const rows: CsvResultRow[] = []
  for (const { line, cells } of records) {
    const cell = (column: string) => {
      const value = cells.get(column)?.trim() ?? ''
      return value === '' ? null : value
    }
    const before = problems.length
    const missing = [...REQUIRED].filter((column) => cell(column) === null)
    for (const column of missing) problems.push({ line, reason: `${column}: is empty` })
    const memberKey = cell('member')
    const member = memberKey === null ? undefined : memberBy.get(memberKey.toLowerCase())
    if (memberKey !== null && member === undefined) {
      problems.push({ line, reason: `member: no member of the club has the e-mail address or id "${memberKey}"` })
    }
    const groupKey = cell('group')
    const group = groupKey === null ? undefined : groupBy.get(groupKey.toLowerCase())
    if (groupKey !== null && group === undefined) {
      problems.push({ line, reason: `group: the club has no group named "${groupKey}" (or with this id)` })
    }
    const points = numberOf(cell('points'))
    if (points === undefined) problems.push({ line, reason: `points: "${cell('points') ?? ''}" is not a number` })
    const date = dateOf(cell('competition_date'))
    if (date === undefined) {
      problems.push({ line, reason: `competition_date: "${cell('competition_date') ?? ''}" is not a date (YYYY-MM-DD or DD.MM.YYYY)` })
    }
    if (problems.length > before || member === undefined || group === undefined || points === undefined
      || date === undefined) continue
    rows.push({ line, member_id: member.id, member_name: member.name, group_id: group.id, group_name: group.name,
      competition_name: cell('competition_name') ?? '', discipline: cell('discipline'), placement: cell('placement'), points,
      competition_date: date })
  }

  // The import's own rules (lengths, the calendar, references) over the rows that passed the file's.
  const entries = rows.map((row) => ({ id: randomUUID(), member_id: row.member_id, group_id: row.group_id,
    competition_name: row.competition_name, discipline: row.discipline, placement: row.placement, points: row.points,
    competition_date: row.competition_date }))
  for (const problem of await importProblems(db, clubId, { competition_results: entries })) {
    const match = /^competition_results\[(\d+)\](?:\.(\w+))?: (.*)$/s.exec(problem)
    const row = match === null ? undefined : rows[Number(match[1])]
    problems.push(row === undefined ? { line: 1, reason: problem } : { line: row.line, reason: `${match?.[2] ?? 'row'}: ${match?.[3] ?? ''}` })
  }
  if (problems.length > 0) throw new RowsRejected(problems.sort((a, b) => a.line - b.line))
  if (!options.dryRun && rows.length > 0) {
    await db.transaction().execute(async (trx) => {
      await importWithin(trx, clock, clubId, { competition_results: entries })
      const competitions = [...new Set(rows.map((row) => row.competition_name))]
      await audit(trx, clock.now(), options.actor, clubId, 'results.imported',
        `${String(rows.length)} result${rows.length === 1 ? '' : 's'}: ${competitions.slice(0, 3).join(', ')}`
        + (competitions.length > 3 ? ', …' : ''))
    })
  }
  return rows
}

interface CsvRecord {
  readonly line: number
  readonly cells: ReadonlyMap<string, string>
}

/**
 * The file's rows by column name, with or without a byte order mark. The separator is the one its
 * header row uses most of comma, semicolon and tab: a semicolon file (as German spreadsheets
 * write) may then hold decimal commas.
 */
function readCsv(text: string): CsvRecord[] {
  const headerLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? ''
  const delimiter = [',', ';', '\t'].map((candidate) => ({ candidate, count: headerLine.split(candidate).length }))
    .sort((a, b) => b.count - a.count)[0]?.candidate ?? ','
  let records: { record: string[], info: { lines: number } }[]
  try {
    records = parse(text, { bom: true, delimiter, info: true, skip_empty_lines: true, relax_column_count: true,
      to: MAX_RESULT_ROWS + 2 }) as unknown as { record: string[], info: { lines: number } }[]
  } catch (error) {
    if (error instanceof CsvError) {
      const { lines } = error as { lines?: number }
      throw new RowsRejected([{ line: lines ?? 1, reason: error.message }])
    }
    throw error
  }
  const [header, ...body] = records
  if (header === undefined) throw new RowsRejected([{ line: 1, reason: 'the file is empty; it needs a header row and a row per result' }])
  const columns = header.record.map((name) => name.trim().toLowerCase())
  const problems: RowProblem[] = []
  const unknown = columns.filter((name) => !(RESULT_COLUMNS as readonly string[]).includes(name))
  if (unknown.length > 0) {
    problems.push({ line: 1, reason: `unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"`).join(', ')}; `
      + `the columns are ${RESULT_COLUMNS.join(', ')}` })
  }
  const absent = [...REQUIRED].filter((name) => !columns.includes(name))
  if (absent.length > 0) problems.push({ line: 1, reason: `missing column${absent.length === 1 ? '' : 's'} ${absent.join(', ')}` })
  if (body.length > MAX_RESULT_ROWS) problems.push({ line: 1, reason: `more than ${String(MAX_RESULT_ROWS)} rows; split the file` })
  if (body.length === 0) problems.push({ line: 1, reason: 'no rows below the header' })
  body.forEach(({ record, info }) => {
    if (record.length !== columns.length) {
      problems.push({ line: info.lines, reason: `${String(record.length)} cells where the header has ${String(columns.length)}` })
    }
  })
  if (problems.length > 0) throw new RowsRejected(problems)
  return body.map(({ record, info }) => ({ line: info.lines, cells: new Map(columns.map((name, i) => [name, record[i] ?? ''])) }))
}

/** null: empty; undefined: not a number. A decimal comma is read as a point (spreadsheets in German). */
function numberOf(value: string | null): number | null | undefined {
  if (value === null) return null
  if (!/^[+-]?\d{1,12}([.,]\d{1,6})?$/.test(value)) return undefined
  return Number(value.replace(',', '.'))
}

/** null: empty; undefined: no date. YYYY-MM-DD, or DD.MM.YYYY as German spreadsheets write it. */
function dateOf(value: string | null): string | null | undefined {
  if (value === null) return null
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value)
  if (german === null) return undefined
  return `${german[3] ?? ''}-${(german[2] ?? '').padStart(2, '0')}-${(german[1] ?? '').padStart(2, '0')}`
}
