/**
 * A club's content in the dashboard API: members, training groups, events, news and competition
 * results (list, create, change, remove), a competition's results from a CSV file, and the club's
 * whole data as an import file (download and upload). Every change goes through
 * src/services/content.ts and the import's rules; a change names the version it started from and
 * is refused with 409 `edit-conflict`, with the record as it is now, when someone else saved it
 * meanwhile. Editors may use these routes; import and export (which include courts) need an admin.
 */
import { randomUUID } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppContext } from '../../context.js'
import {
  countResultsOfMember, findContent, isoFromDb, isoFromDbOrNull, listEvents, listGroups, listMembers, listNews, listResults,
} from '../../services/content.js'
import type { ContentRow } from '../../services/content.js'
import { EditConflict, InvalidInput, NotFound } from '../../domain/errors.js'
import { formatInZone } from '../../domain/zoned-time.js'
import { memberOf } from '../../http/dashboard-access.js'
import { PROBLEM_CONTENT_TYPE, ProblemError } from '../../http/problems.js'
import { REQUEST_ID_HEADER, jsonResponse, noContent, problemResponse } from '../../http/responses.js'
import { Reference } from '../../schemas/common.js'
import { ClubParams } from '../../schemas/admin.js'
import { ClubEvent, ClubEventList, ClubEventParams, ClubGroup, ClubGroupList, ClubGroupParams, ClubMember, ClubMemberList,
  ClubMemberParams, ClubNews, ClubNewsList, ClubNewsParams, ClubResult, ClubResultList, ClubResultParams, DeleteQuery,
  EditConflictProblem, EventSave, GroupSave, ImportOutcome, MemberSave, NewsSave, ResultSave, ResultsCsv, ResultsCsvRejected,
  ResultsCsvOutcome } from '../../schemas/content.js'
import { removeContent, saveContent } from '../../services/content.js'
import type { ContentSection } from '../../services/content.js'
import { exportClubDataFor } from '../../services/export.js'
import { importClubData } from '../../services/import.js'
import { RowsRejected, importResultsCsv } from '../../services/results-csv.js'
import { CLUB, FORBIDDEN, INVALID, NO_CLUB, NOT_SIGNED_IN, actorOf, bodyFieldProblem, clubOf } from './common.js'

const EDIT_CONFLICT = {
  description: 'Someone else changed the record since the version named (`edit-conflict`; `current` is the record as it is '
    + 'now), or, on removal, the record is still in use (`conflict`, a member named by competition results). Nothing changed.',
  headers: REQUEST_ID_HEADER,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: Reference(EditConflictProblem) } },
} as const
const TOO_LARGE = problemResponse('The body is larger than this route takes.')
const CSV_REJECTED = {
  description: 'The file was refused and nothing was saved: `rows` names every problem of the file, each at its line and column, '
    + 'in words for the person who made it (`invalid_params` has them too, as `line N`). Or the body itself is malformed.',
  headers: REQUEST_ID_HEADER,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: Reference(ResultsCsvRejected) } },
} as const
/** The problems of a refused file listed in one answer. */
const LISTED_PROBLEMS = 500

/** How the content's answers read the database, per kind of record. */
const bool = (value: boolean | number) => value === true || value === 1

function memberBody(row: ContentRow<'members'> & { results: number }): ClubMember {
  return { id: row.id, name: row.name, email: row.email, results: row.results, version: row.version }
}

function groupBody(row: ContentRow<'groups'>): ClubGroup {
  return { id: row.id, name: row.name, sport: row.sport, age_min: row.age_min, age_max: row.age_max, level: row.level,
    description: row.description, active: bool(row.active), version: row.version }
}

function eventBody(row: ContentRow<'events'>): ClubEvent {
  const released = bool(row.public_booking)
  return { id: row.id, title: row.title, starts_at: isoFromDb(row.starts_at), ends_at: isoFromDbOrNull(row.ends_at),
    location: row.location, public_booking: released, group_id: row.group_id,
    listing: row.group_id !== null ? 'group-event' : released ? 'listed' : 'not-released', version: row.version }
}

function newsBody(row: ContentRow<'news'>, now: number): ClubNews {
  const published = isoFromDbOrNull(row.published_at)
  return { id: row.id, title: row.title, content: row.content, published_at: published,
    state: published === null ? 'draft' : Date.parse(published) > now ? 'scheduled' : 'published',
    group_id: row.group_id, created_by: row.created_by, version: row.version }
}

function resultBody(row: ContentRow<'competition_results'>): ClubResult {
  return { id: row.id, member_id: row.member_id, group_id: row.group_id, competition_name: row.competition_name,
    discipline: row.discipline, placement: row.placement, points: row.points, competition_date: row.competition_date,
    created_at: isoFromDb(row.created_at), version: row.version }
}

/** The entry a request body saves: the body without its version, under the record's id. */
function entryOf(id: string, body: { readonly version?: number }): { id: string } {
  const fields: Record<string, unknown> = { ...body }
  delete fields.version
  return { ...fields, id }
}

interface Editor<Save extends TObject> {
  readonly section: ContentSection
  /** The collection's path segment and the record's path parameter. */
  readonly path: string
  readonly param: string
  readonly tag: string
  readonly names: { readonly one: string, readonly many: string }
  readonly item: TSchema
  readonly list: TSchema
  readonly save: Save
  /** The club and the record's id (`param`). */
  readonly params: TObject
  readonly bodyLimit?: number
  readonly removable: boolean
  /** The body's entry in the import's terms (e.g. news published `now` at the server's time). */
  readonly entry?: (id: string, body: Static<Save>, now: number) => { id: string }
  readonly all: (clubId: string, now: number) => Promise<unknown[]>
  readonly one: (clubId: string, id: string, now: number) => Promise<unknown>
}

/** Runs a save, naming the body's fields when the import's rules refuse it, and the record as it is when it moved on. */
async function saving<T>(run: () => Promise<T>, current: () => Promise<unknown>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof InvalidInput) throw bodyFieldProblem(error)
    if (error instanceof EditConflict) throw new EditConflict(error.message, await current())
    throw error
  }
}

export function contentRoutes(app: FastifyInstance, context: AppContext): void {
  registerEditors(app, context)
  registerResultsCsv(app, context)
  registerClubData(app, context)
}

/** One kind of record's routes: list, add, change and (when removable) remove. */
function registerEditor<Save extends TObject>(parent: FastifyInstance, { db, clock }: AppContext, spec: Editor<Save>): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const clubPath = `${CLUB}/${spec.path}`
  const recordPath = `${clubPath}/:${spec.param}`
  const one = async (clubId: string, id: string) => {
    const found = await spec.one(clubId, id, clock.now())
    if (found === undefined) throw new NotFound(`No ${spec.names.one} with the id ${id}.`)
    return found
  }
  const entryFor = (id: string, body: Static<Save>) => (spec.entry === undefined
    ? entryOf(id, body)
    : spec.entry(id, body, clock.now()))

  app.get(clubPath, {
    config: { access: { dashboard: 'editor' } },
    schema: {
      operationId: `list${spec.tag}`, summary: `The club's ${spec.names.many}`, tags: ['Content'],
      params: ClubParams,
      response: { 200: jsonResponse(`The ${spec.names.many}.`, Reference(spec.list)), 401: NOT_SIGNED_IN, 403: FORBIDDEN,
        404: NO_CLUB },
    },
  }, async (request) => ({ items: await spec.all(memberOf(request).membership.clubId, clock.now()) }))

  app.post(clubPath, {
    config: { access: { dashboard: 'editor' } },
    ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
    schema: {
      operationId: `create${spec.tag.replace(/s$/, '')}`, summary: `Add a ${spec.names.one}`, tags: ['Content'],
      description: 'Checked by the import\'s rules (docs/import-format.md); a refusal names the field. Recorded in the audit log.',
      params: ClubParams,
      body: Reference(spec.save as TObject),
      response: { 201: jsonResponse(`The ${spec.names.one}.`, Reference(spec.item)), 400: INVALID, 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB, 413: TOO_LARGE },
    },
  }, async (request, reply) => {
    const clubId = memberOf(request).membership.clubId
    const body = request.body as Static<Save> & { version?: number }
    if (body.version !== undefined) {
      throw new ProblemError('validation-error', 'version: a new record has none; change a record with PUT.', {},
        [{ name: 'version', reason: 'a new record has none' }])
    }
    const entry = entryFor(randomUUID(), body)
    await saving(() => saveContent(db, clock, clubId, spec.section, entry, { actor: actorOf(request) }),
      () => Promise.resolve(undefined))
    return reply.code(201).send(await one(clubId, entry.id))
  })

  app.put(recordPath, {
    config: { access: { dashboard: 'editor' } },
    ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
    schema: {
      operationId: `change${spec.tag.replace(/s$/, '')}`, summary: `Change a ${spec.names.one}`, tags: ['Content'],
      description: 'The whole record as it is to be, with the version it was read at (`version`, required). Recorded in the '
        + 'audit log with the fields that changed.',
      params: spec.params,
      body: Reference(spec.save as TObject),
      response: { 200: jsonResponse(`The ${spec.names.one} as it is now.`, Reference(spec.item)), 400: INVALID,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: EDIT_CONFLICT, 413: TOO_LARGE },
    },
  }, async (request) => {
    const clubId = memberOf(request).membership.clubId
    const id = (request.params as Record<string, string>)[spec.param] ?? ''
    const body = request.body as Static<Save> & { version?: number }
    await one(clubId, id)
    if (body.version === undefined) {
      throw new ProblemError('validation-error', 'version: required to change a record: the version it was read at.', {},
        [{ name: 'version', reason: 'required: the version the record was read at' }])
    }
    const entry = entryFor(id.toLowerCase(), body)
    await saving(() => saveContent(db, clock, clubId, spec.section, entry, { actor: actorOf(request), version: body.version }),
      () => one(clubId, id))
    return one(clubId, id)
  })

  if (!spec.removable) return
  app.delete(recordPath, {
    config: { access: { dashboard: 'editor' } },
    schema: {
      operationId: `remove${spec.tag.replace(/s$/, '')}`, summary: `Remove a ${spec.names.one}`, tags: ['Content'],
      description: 'With `version`, only if nobody changed it since. Recorded in the audit log.',
      params: spec.params,
      querystring: DeleteQuery,
      response: { 204: noContent('Removed.'), 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 409: EDIT_CONFLICT },
    },
  }, async (request, reply) => {
    const clubId = memberOf(request).membership.clubId
    const id = (request.params as Record<string, string>)[spec.param] ?? ''
    await saving(() => removeContent(db, clock, clubId, spec.section, id,
      { actor: actorOf(request), ...(request.query.version === undefined ? {} : { version: request.query.version }) }),
    () => one(clubId, id))
    return reply.code(204).send()
  })
}

/** The editors of members, training groups, events, news and competition results. */
function registerEditors(app: FastifyInstance, context: AppContext): void {
  const { db } = context
  const editor = <Save extends TObject>(spec: Editor<Save>) => {
    registerEditor(app, context, spec)
  }

  editor({ section: 'members', path: 'members', param: 'member', tag: 'Members', names: { one: 'member', many: 'members' },
    item: ClubMember, list: ClubMemberList, save: MemberSave, params: ClubMemberParams, removable: true,
    all: async (clubId) => (await listMembers(db, clubId)).map(memberBody),
    one: async (clubId, id) => {
      const row = await findContent(db, 'members', clubId, id)
      return row && memberBody({ ...row, results: await countResultsOfMember(db, clubId, id) })
    } })
  editor({ section: 'groups', path: 'groups', param: 'group', tag: 'Groups', names: { one: 'training group', many: 'training groups' },
    item: ClubGroup, list: ClubGroupList, save: GroupSave, params: ClubGroupParams, removable: false,
    all: async (clubId) => (await listGroups(db, clubId)).map(groupBody),
    one: async (clubId, id) => {
      const row = await findContent(db, 'groups', clubId, id)
      return row && groupBody(row)
    } })
  editor({ section: 'events', path: 'events', param: 'event', tag: 'Events', names: { one: 'event', many: 'events' },
    item: ClubEvent, list: ClubEventList, save: EventSave, params: ClubEventParams, removable: true,
    all: async (clubId) => (await listEvents(db, clubId)).map(eventBody),
    one: async (clubId, id) => {
      const row = await findContent(db, 'events', clubId, id)
      return row && eventBody(row)
    } })
  editor({ section: 'news', path: 'news', param: 'news', tag: 'News', names: { one: 'news item', many: 'news items' },
    item: ClubNews, list: ClubNewsList, save: NewsSave, params: ClubNewsParams, removable: true, bodyLimit: 512 * 1024,
    entry: (id, body, now) => ({ ...entryOf(id, body),
      published_at: body.published_at === 'now' ? new Date(now).toISOString() : body.published_at ?? null }),
    all: async (clubId, now) => (await listNews(db, clubId)).map((row) => newsBody(row, now)),
    one: async (clubId, id, now) => {
      const row = await findContent(db, 'news', clubId, id)
      return row && newsBody(row, now)
    } })
  editor({ section: 'competition_results', path: 'competition-results', param: 'result', tag: 'CompetitionResults',
    names: { one: 'competition result', many: 'competition results' },
    item: ClubResult, list: ClubResultList, save: ResultSave, params: ClubResultParams, removable: true,
    all: async (clubId) => (await listResults(db, clubId)).map(resultBody),
    one: async (clubId, id) => {
      const row = await findContent(db, 'competition_results', clubId, id)
      return row && resultBody(row)
    } })
}

/** A competition's results from a CSV file. */
function registerResultsCsv(parent: FastifyInstance, { db, clock }: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()

  app.post(`${CLUB}/competition-results/csv`, {
    config: { access: { dashboard: 'editor' } },
    bodyLimit: 4 * 1024 * 1024,
    schema: {
      operationId: 'importResultsCsv', summary: 'A competition\'s results from a CSV file', tags: ['Content'],
      description: 'Every row is checked before anything is written; one bad row refuses the whole file (400, every problem of '
        + 'the file in `rows`, each at its line and column). With `dry_run`, nothing is written either way: the answer shows the '
        + 'rows as they would be saved. Columns: docs/dashboard.md, "Results from a CSV file".',
      params: ClubParams,
      body: Reference(ResultsCsv),
      response: { 200: jsonResponse('The rows, saved unless a dry run.', Reference(ResultsCsvOutcome)), 400: CSV_REJECTED,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 413: TOO_LARGE },
    },
  }, async (request) => {
    const clubId = memberOf(request).membership.clubId
    const dryRun = request.body.dry_run === true
    try {
      const rows = await importResultsCsv(db, clock, clubId, request.body.csv, { dryRun, actor: actorOf(request) })
      return { rows, written: !dryRun && rows.length > 0 }
    } catch (error) {
      if (!(error instanceof RowsRejected)) throw error
      const listed = error.rows.slice(0, LISTED_PROBLEMS)
      const params = listed.slice(0, 100).map((row) => ({ name: `line ${String(row.line)}`,
        reason: row.column === undefined ? row.reason : `${row.column}: ${row.reason}` }))
      const lines = [...new Set(error.rows.map((row) => row.line))]
      throw new ProblemError('validation-error', `The file was refused and nothing was saved: line${lines.length === 1 ? '' : 's'} `
        + `${lines.slice(0, 20).join(', ')}${lines.length > 20 ? ', …' : ''} ${lines.length === 1 ? 'has a problem' : 'have problems'}.`,
      {}, params, { rows: listed.map((row) => ({ line: row.line, column: row.column ?? null, reason: row.reason })) })
    }
  })
}

/** The club's whole data as an import file: download and upload (admins only). */
function registerClubData(parent: FastifyInstance, context: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>()
  const { db, clock } = context

  app.get(`${CLUB}/export`, {
    config: { access: { dashboard: 'admin' } },
    schema: {
      operationId: 'exportClubData', summary: 'The club\'s data as an import file', tags: ['Content'],
      description: 'Members (with their e-mail addresses), groups, events, news, competition results, courts and their blocks '
        + 'and reservations, in the import format (docs/import-format.md), ids included: uploading it to another instance '
        + 'recreates the club\'s data there. Bookings and the club\'s people are not part of it.',
      params: ClubParams,
      response: { 200: jsonResponse('The import file.', Type.Object({}, { additionalProperties: true })), 401: NOT_SIGNED_IN,
        403: FORBIDDEN, 404: NO_CLUB },
    },
  }, async (request, reply) => {
    const club = await clubOf(context, request)
    const date = formatInZone(clock.now(), club.timezone).slice(0, 10)
    return reply.header('content-disposition', `attachment; filename="${club.slug}-${date}.json"`)
      .send({ $schema: 'https://club-platform.invalid/schemas/import-format.schema.json', ...await exportClubDataFor(db, clock, club.id, actorOf(request)) })
  })

  app.post(`${CLUB}/import`, {
    config: { access: { dashboard: 'admin' } },
    bodyLimit: 16 * 1024 * 1024,
    schema: {
      operationId: 'importClubData', summary: 'Load an import file', tags: ['Content'],
      description: 'The import format (docs/import-format.md), all or nothing: any problem refuses the whole file (400, each in '
        + '`invalid_params`, named by its entry, e.g. `events[3].starts_at`), and nothing changes. Records are matched by id: a '
        + 'new id is added, a known one changed. A file whose holds or courts would leave upcoming bookings without a place is '
        + 'refused; use the command line\'s `import --cancel-bookings` for that.',
      params: ClubParams,
      body: Type.Object({}, { additionalProperties: true, description: 'The import file.' }),
      response: { 200: jsonResponse('What the file held; all of it was saved.', Reference(ImportOutcome)), 400: INVALID,
        401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NO_CLUB, 413: TOO_LARGE },
    },
  }, async (request) => {
    const clubId = memberOf(request).membership.clubId
    try {
      const summary = await importClubData(db, clock, clubId, request.body,
        { audit: { actor: actorOf(request), record: { action: 'club.imported', target: 'import file', targetName: 'an import file' } } })
      return { members: summary.members, groups: summary.groups, events: summary.events, news: summary.news,
        competition_results: summary.competition_results, courts: summary.courts, court_holds: summary.court_holds }
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error
      const params = error.problems.map((problem) => {
        const at = /^([^:]+): (.*)$/s.exec(problem)
        return at === null ? { name: 'file', reason: problem } : { name: at[1] ?? 'file', reason: at[2] ?? problem }
      })
      throw new ProblemError('validation-error', `The file was refused and nothing was changed: ${String(params.length)} problem`
        + `${params.length === 1 ? '' : 's'}.`, {}, params)
    }
  })
}
