/**
 * A competition's results from a CSV file (docs/dashboard.md, "Results from a CSV file"): every
 * row is checked before anything is written, and one bad row refuses the whole file. Every problem
 * of a file comes in one pass — the header's and every cell of every row — each at its line and
 * column, in words a club's secretary can act on (never a JSON Schema phrase).
 */
import { randomUUID } from 'node:crypto'
import { CsvError, parse } from 'csv-parse/sync'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { listGroups, listMembers } from '../db/repositories/content.js'
import type { Database } from '../db/schema.js'
import { InvalidInput } from '../domain/errors.js'
import type { Actor } from './audit.js'
import { importProblems, importWithin } from './import.js'
import { write } from './unit-of-work.js'

export const RESULT_COLUMNS = ['member', 'group', 'competition_name', 'discipline', 'placement', 'points', 'competition_date'] as const
type ResultColumn = (typeof RESULT_COLUMNS)[number]
const REQUIRED: readonly ResultColumn[] = ['member', 'group', 'competition_name']
/** What each required column holds, for the sentence that says it is missing or empty. */
const NEEDED: Readonly<Record<string, string>> = {
  member: 'the member\'s e-mail address (or id)', group: 'the group\'s name (or id)', competition_name: 'the competition\'s name',
}
/** The longest text each column may hold (the import's limits, src/schemas/import.ts). */
const LONGEST: Readonly<Partial<Record<ResultColumn, number>>> = { competition_name: 300, discipline: 200, placement: 100 }
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

/** A line of the file (1 is the header), the column if it is about one, and what is wrong, as a sentence. */
export interface RowProblem {
  readonly line: number
  readonly column?: string
  readonly reason: string
}

/** The file was refused; `rows` names every problem, each at its line (and column). */
export class RowsRejected extends InvalidInput {
  constructor(readonly rows: readonly RowProblem[]) {
    super(`the file was rejected, nothing was saved: ${String(new Set(rows.map((row) => row.line)).size)} line(s) have problems`,
      rows.map((row) => `line ${String(row.line)}${row.column === undefined ? '' : `, ${row.column}`}: ${row.reason}`))
    this.name = 'RowsRejected'
  }
}

/**
 * Checks the file; unless `dryRun`, saves every row as a new result, all or nothing. Returns the
 * rows as they are (or would be) saved; throws RowsRejected naming every problem of the file in one
 * pass: the header's (a missing or unknown column) and each row's, every cell of it.
 */
export async function importResultsCsv(
  db: Kysely<Database>,
  clock: Clock,
  clubId: string,
  csv: string,
  options: { readonly dryRun: boolean, readonly actor: Actor },
): Promise<CsvResultRow[]> {
  const { records, problems } = readCsv(csv)
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

  const rows: CsvResultRow[] = []
  for (const { line, cells, columns } of records) {
    const cell = (column: ResultColumn) => {
      const value = cells.get(column)?.trim() ?? ''
      return value === '' ? null : value
    }
    const found: RowProblem[] = []
    const problem = (column: ResultColumn, reason: string) => found.push({ line, column, reason })
    // A required column the header lacks is told once, at line 1; its cells are not there to be empty.
    for (const column of REQUIRED.filter((name) => columns.has(name) && cell(name) === null)) {
      problem(column, `This is empty; every result needs ${NEEDED[column] ?? column}.`)
    }
    const memberKey = cell('member')
    const member = memberKey === null ? undefined : memberBy.get(memberKey.toLowerCase())
    if (memberKey !== null && member === undefined) {
      problem('member', `No member of the club has the e-mail address (or id) "${memberKey}". Add them on the Members page first, `
      + 'or correct the address.')
    }
    const groupKey = cell('group')
    const group = groupKey === null ? undefined : groupBy.get(groupKey.toLowerCase())
    if (groupKey !== null && group === undefined) problem('group', `The club has no group called "${groupKey}".`)
    for (const [column, longest] of Object.entries(LONGEST) as [ResultColumn, number][]) {
      const value = cell(column)
      if (value !== null && value.length > longest) {
        problem(column, `This is ${String(value.length)} characters long; at most ${String(longest)} fit.`)
      }
    }
    const points = numberOf(cell('points'))
    if (points === undefined) problem('points', `"${cell('points') ?? ''}" is not a number; write points as digits, e.g. 12.5 or 12,5.`)
    const date = dateOf(cell('competition_date'))
    if (isRefusal(date)) problem('competition_date', date.reason)
    problems.push(...found)
    if (found.length > 0 || member === undefined || group === undefined || points === undefined || isRefusal(date)
      || !REQUIRED.every((name) => columns.has(name))) continue
    rows.push({ line, member_id: member.id, member_name: member.name, group_id: group.id, group_name: group.name,
      competition_name: cell('competition_name') ?? '', discipline: cell('discipline'), placement: cell('placement'), points,
      competition_date: date })
  }

  // The import's own rules over the rows that passed (the checks above hold them already); anything left, in general words.
  const entries = rows.map((row) => ({ id: randomUUID(), member_id: row.member_id, group_id: row.group_id,
    competition_name: row.competition_name, discipline: row.discipline, placement: row.placement, points: row.points,
    competition_date: row.competition_date }))
  if (problems.length === 0) {
    for (const problem of await importProblems(db, clubId, { competition_results: entries })) {
      const match = /^competition_results\[(\d+)\]/.exec(problem)
      problems.push({ line: rows[Number(match?.[1] ?? -1)]?.line ?? 1, reason: 'This row cannot be saved as it is; check its cells '
        + 'against the columns described above the upload.' })
    }
  }
  if (problems.length > 0) {
    throw new RowsRejected(problems.sort((a, b) => a.line - b.line || columnOrder(a.column) - columnOrder(b.column)))
  }
  if (!options.dryRun && rows.length > 0) {
    await write(db, clock.now(), async (work) => {
      await importWithin(work, clubId, { competition_results: entries })
      const competitions = [...new Set(rows.map((row) => row.competition_name))]
      const summary = `${String(rows.length)} result${rows.length === 1 ? '' : 's'}: ${competitions.slice(0, 3).join(', ')}`
        + (competitions.length > 3 ? ', …' : '')
      await work.audit(options.actor, clubId, { action: 'results.imported', target: summary, targetName: summary })
    })
  }
  return rows
}

function isRefusal(date: string | null | { reason: string }): date is { reason: string } {
  return typeof date === 'object' && date !== null
}

function columnOrder(column: string | undefined): number {
  return column === undefined ? -1 : (RESULT_COLUMNS as readonly string[]).indexOf(column)
}

interface CsvRecord {
  readonly line: number
  readonly cells: ReadonlyMap<string, string>
  /** The known columns of the header. */
  readonly columns: ReadonlySet<string>
}

/**
 * The file's rows by column name, with or without a byte order mark, and the problems of its
 * header and shape (each row that has more or fewer cells than the header is one, and is not read
 * further). The separator is the one its header row uses most of comma, semicolon and tab: a
 * semicolon file (as German spreadsheets write) may then hold decimal commas. A file that cannot be
 * read at all is refused at once.
 */
function readCsv(text: string): { records: CsvRecord[], problems: RowProblem[] } {
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
      throw new RowsRejected([{ line: lines ?? 1, reason: `The file cannot be read as CSV here: ${csvMistake(error)}. Nothing after `
        + 'it was checked.' }])
    }
    throw error
  }
  const [header, ...body] = records
  if (header === undefined) {
    throw new RowsRejected([{ line: 1, reason: 'The file is empty; it needs a header row and a row per result.' }])
  }
  const columns = header.record.map((name) => name.trim().toLowerCase())
  const problems: RowProblem[] = []
  for (const name of columns.filter((name) => !(RESULT_COLUMNS as readonly string[]).includes(name))) {
    problems.push({ line: 1, column: name, reason: `The column "${name}" is not one of the file's; the columns are `
      + `${RESULT_COLUMNS.join(', ')}. Rename or remove it.` })
  }
  for (const name of REQUIRED.filter((required) => !columns.includes(required))) {
    problems.push({ line: 1, column: name, reason: `The column "${name}" is missing; every result needs ${NEEDED[name] ?? name}.` })
  }
  if (body.length > MAX_RESULT_ROWS) problems.push({ line: 1, reason: `More than ${String(MAX_RESULT_ROWS)} rows; split the file.` })
  if (body.length === 0) problems.push({ line: 1, reason: 'There are no rows below the header.' })
  const known = new Set(columns.filter((name) => (RESULT_COLUMNS as readonly string[]).includes(name)))
  const rows: CsvRecord[] = []
  for (const { record, info } of body.slice(0, MAX_RESULT_ROWS)) {
    if (record.length !== columns.length) {
      problems.push({ line: info.lines, reason: `This row has ${String(record.length)} cells where the header has `
        + `${String(columns.length)}; put a cell that holds the separator in quotes.` })
      continue
    }
    rows.push({ line: info.lines, cells: new Map(columns.map((name, i) => [name, record[i] ?? ''])), columns: known })
  }
  return { records: rows, problems }
}

/** csv-parse's reason, without its own codes and vocabulary. */
function csvMistake(error: CsvError): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted cell is never closed'
  if (error.code === 'CSV_INVALID_CLOSING_QUOTE') return 'a cell has text after its closing quote'
  return 'its quotes or separators do not fit together'
}

/** null: empty; undefined: not a number. A decimal comma is read as a point (spreadsheets in German). */
function numberOf(value: string | null): number | null | undefined {
  if (value === null) return null
  if (!/^[+-]?\d{1,12}([.,]\d{1,6})?$/.test(value)) return undefined
  return Number(value.replace(',', '.'))
}

/**
 * null: empty; a string: the date (YYYY-MM-DD); an object: why it is not one. YYYY-MM-DD, or
 * DD.MM.YYYY as German spreadsheets write it, of a day the calendar has, from 1900 to 2100.
 */
function dateOf(value: string | null): string | null | { reason: string } {
  if (value === null) return null
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value)
  const [year, month, day] = iso !== null ? [iso[1], iso[2], iso[3]] : german !== null ? [german[3], german[2], german[1]] : []
  if (year === undefined || month === undefined || day === undefined) {
    return { reason: `"${value}" is not written as a date; write it as 2026-05-03 or 03.05.2026.` }
  }
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`
  const parsed = new Date(`${date}T00:00:00Z`)
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    return { reason: `"${value}" is not a day in the calendar (month ${String(Number(month))}, day ${String(Number(day))}).` }
  }
  if (Number(year) < 1900 || Number(year) > 2100) return { reason: `"${value}" is not a year of a competition (1900 to 2100).` }
  return date
}
