/**
 * The dashboard API's bodies for a club's content (docs/dashboard.md, "Content"): members, training
 * groups, events, news and competition results. What may be saved is the import format's entry
 * (src/schemas/import.ts) without its id, so an entry typed in the dashboard and one in an import
 * file obey one rule set; what is answered carries every field (null when empty) and the record's
 * version, which a change names to be refused (409 `edit-conflict`) when someone else changed the
 * record meanwhile.
 */
import { Type } from '@sinclair/typebox'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { DateTime, Nullable, Reference, Uuid } from './common.js'
import { Problem } from './problem.js'
import { ImportCompetitionResult, ImportEvent, ImportGroup, ImportMember, ImportNews } from './import.js'

const Version = () => Type.Integer({ minimum: 1, description: 'Counts the record\'s changes; a change names the version it '
  + 'started from.' })
const ExpectedVersion = () => Type.Optional(Type.Integer({ minimum: 1, description: 'Required to change a record: the '
  + 'version it was read at. When the record has changed since, nothing is saved and the answer is 409 `edit-conflict` '
  + 'with the record as it is now (`current`).' }))

/** The import entry's fields without its id, and the version a change starts from. */
function saveBody<T extends TObject>(entry: T, $id: string, description: string) {
  return nullableAsTypeList(Type.Composite([Type.Omit(entry, ['id']), Type.Object({ version: ExpectedVersion() })],
    { $id, additionalProperties: false, description }))
}

/**
 * The import's `T | null` fields (`anyOf: [T, null]`) as a type list (`type: [T, 'null']`), as
 * `Nullable` in common.ts writes them. The request validator coerces types, and in an anyOf it
 * would coerce a null to the first branch's type (an empty age became 0); with a type list that
 * admits null, null stays null. The import's own validator does not coerce and reads either form.
 */
function nullableAsTypeList<T extends TObject>(schema: T): T {
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => {
    const [value, none, ...more] = (property as { anyOf?: TSchema[] }).anyOf ?? []
    if (more.length > 0 || none?.type !== 'null' || typeof value?.type !== 'string') return [name, property]
    const merged: Record<string, unknown> = { ...property, ...value, type: [value.type, 'null'] }
    delete merged.anyOf
    return [name, merged]
  }))
  return { ...schema, properties }
}
const items = (item: TSchema, $id: string, description: string) =>
  Type.Object({ items: Type.Array(Reference(item)) }, { $id, additionalProperties: false, description })

export const ClubMember = Type.Object({
  id: Uuid(),
  name: Type.String(),
  email: Type.String({ description: 'Unique within the club; never shown by the read API.' }),
  results: Type.Integer({ minimum: 0, description: 'Competition results that name the member.' }),
  version: Version(),
}, { $id: 'ClubMember', additionalProperties: false, description: 'A member of the club; only the club\'s administrators see it.' })
export type ClubMember = Static<typeof ClubMember>
export const ClubMemberList = items(ClubMember, 'ClubMemberList', 'The club\'s members by name.')
export const MemberSave = saveBody(ImportMember, 'MemberSave', 'A member as it is to be.')
export type MemberSave = Static<typeof MemberSave>

export const ClubGroup = Type.Object({
  id: Uuid(),
  name: Type.String(),
  sport: Type.String(),
  age_min: Nullable(Type.Integer()),
  age_max: Nullable(Type.Integer()),
  level: Nullable(Type.String()),
  description: Nullable(Type.String()),
  active: Type.Boolean({ description: 'Inactive groups are not listed by the read API.' }),
  version: Version(),
}, { $id: 'ClubGroup', additionalProperties: false, description: 'A training group of the club, active or not.' })
export type ClubGroup = Static<typeof ClubGroup>
export const ClubGroupList = items(ClubGroup, 'ClubGroupList', 'The club\'s training groups by name.')
export const GroupSave = saveBody(ImportGroup, 'GroupSave', 'A training group as it is to be.')
export type GroupSave = Static<typeof GroupSave>

export const ClubEvent = Type.Object({
  id: Uuid(),
  title: Type.String(),
  starts_at: DateTime('Start.'),
  ends_at: Nullable(DateTime('End.')),
  location: Nullable(Type.String()),
  public_booking: Type.Boolean({ description: 'Released for public booking.' }),
  group_id: Nullable(Uuid('The group it belongs to.')),
  listing: Type.Union([Type.Literal('listed'), Type.Literal('not-released'), Type.Literal('group-event')], {
    description: 'Whether the read API lists it, and why not: `listed` (released, no group), `not-released` (not released for '
      + 'public booking), `group-event` (belongs to a group).',
  }),
  version: Version(),
}, { $id: 'ClubEvent', additionalProperties: false, description: 'An event of the club, listed or not.' })
export type ClubEvent = Static<typeof ClubEvent>
export const ClubEventList = items(ClubEvent, 'ClubEventList', 'The club\'s events by start, the latest first.')
export const EventSave = saveBody(ImportEvent, 'EventSave', 'An event as it is to be.')
export type EventSave = Static<typeof EventSave>

export const ClubNews = Type.Object({
  id: Uuid(),
  title: Type.String(),
  content: Type.String({ description: 'Plain text: shown as written, line breaks kept, never read as markup.' }),
  published_at: Nullable(DateTime('Listed from this instant on; null: a draft.')),
  state: Type.Union([Type.Literal('draft'), Type.Literal('scheduled'), Type.Literal('published')], {
    description: '`draft` (no publication time), `scheduled` (a time still to come), `published` (listed now).',
  }),
  group_id: Nullable(Uuid('The group it is news of.')),
  created_by: Nullable(Uuid('The member who wrote it.')),
  version: Version(),
}, { $id: 'ClubNews', additionalProperties: false, description: 'A news item of the club in any state.' })
export type ClubNews = Static<typeof ClubNews>
export const ClubNewsList = items(ClubNews, 'ClubNewsList', 'The club\'s news: drafts first, then by publication, the latest first.')
export const NewsSave = nullableAsTypeList(Type.Composite([
  Type.Omit(ImportNews, ['id', 'published_at']),
  Type.Object({
    published_at: Type.Optional(Type.Union([Type.Literal('now'), Type.String({ format: 'date-time' }), Type.Null()], {
      description: '`now`: published at once (the server\'s time); an instant: listed from then on (scheduled while it is to '
        + 'come); null or absent: a draft.',
    })),
    version: ExpectedVersion(),
  }),
], { $id: 'NewsSave', additionalProperties: false, description: 'A news item as it is to be.' }))
export type NewsSave = Static<typeof NewsSave>

export const ClubResult = Type.Object({
  id: Uuid(),
  member_id: Uuid(),
  group_id: Uuid(),
  competition_name: Type.String(),
  discipline: Nullable(Type.String()),
  placement: Nullable(Type.String()),
  points: Nullable(Type.Number()),
  competition_date: Nullable(Type.String({ format: 'date' })),
  created_at: DateTime('When it was recorded.'),
  version: Version(),
}, { $id: 'ClubResult', additionalProperties: false, description: 'A competition result of the club.' })
export type ClubResult = Static<typeof ClubResult>
export const ClubResultList = items(ClubResult, 'ClubResultList', 'The club\'s competition results in the read API\'s order.')
export const ResultSave = saveBody(ImportCompetitionResult, 'ResultSave', 'A competition result as it is to be.')
export type ResultSave = Static<typeof ResultSave>

export const ResultsCsv = Type.Object({
  csv: Type.String({ minLength: 1, maxLength: 2_000_000, description: 'The file\'s text (docs/dashboard.md, "Results from a '
    + 'CSV file"): a header row, then one result a row.' }),
  dry_run: Type.Optional(Type.Boolean({ description: 'Check and show the rows; write nothing.' })),
}, { $id: 'ResultsCsv', additionalProperties: false, description: 'A competition\'s results as CSV.' })
export type ResultsCsv = Static<typeof ResultsCsv>

export const ResultsCsvOutcome = Type.Object({
  rows: Type.Array(Type.Object({
    line: Type.Integer({ description: 'The line of the file.' }),
    member_id: Uuid(),
    member_name: Type.String(),
    group_id: Uuid(),
    group_name: Type.String(),
    competition_name: Type.String(),
    discipline: Nullable(Type.String()),
    placement: Nullable(Type.String()),
    points: Nullable(Type.Number()),
    competition_date: Nullable(Type.String({ format: 'date' })),
  }, { additionalProperties: false })),
  written: Type.Boolean({ description: 'Whether the results were saved (false for a dry run).' }),
}, { $id: 'ResultsCsvOutcome', additionalProperties: false, description: 'The rows of a CSV file that passed every check.' })
export type ResultsCsvOutcome = Static<typeof ResultsCsvOutcome>

export const DeleteQuery = Type.Object({
  version: Type.Optional(Type.Integer({ minimum: 1, description: 'The version the record was read at: when it has changed '
    + 'since, nothing is removed (409 `edit-conflict`).' })),
}, { additionalProperties: false })

export const ImportOutcome = Type.Object({
  members: Type.Integer(), groups: Type.Integer(), events: Type.Integer(), news: Type.Integer(),
  competition_results: Type.Integer(), courts: Type.Integer(), court_holds: Type.Integer(),
}, { $id: 'ImportOutcome', additionalProperties: false, description: 'How many entries of each kind the file held; all were saved.' })

const Club = () => Type.String({ minLength: 1, maxLength: 100, description: 'The club\'s slug.' })
export const ClubMemberParams = Type.Object({ club: Club(), member: Uuid('A member id.') }, { additionalProperties: false })
export const ClubGroupParams = Type.Object({ club: Club(), group: Uuid('A group id.') }, { additionalProperties: false })
export const ClubEventParams = Type.Object({ club: Club(), event: Uuid('An event id.') }, { additionalProperties: false })
export const ClubNewsParams = Type.Object({ club: Club(), news: Uuid('A news item id.') }, { additionalProperties: false })
export const ClubResultParams = Type.Object({ club: Club(), result: Uuid('A competition result id.') }, { additionalProperties: false })

export const EditConflictProblem = Type.Composite([
  Type.Omit(Problem, ['invalid_params']),
  Type.Object({ current: Type.Optional(Type.Unknown({ description: 'With `edit-conflict`: the record as it is now, as its '
    + 'list shows it.' })) }),
], { $id: 'EditConflictProblem', additionalProperties: false,
  description: 'A change refused because the record changed since the version it named (`edit-conflict`, with `current`), '
    + 'or because the record is in use (`conflict`).' })

export const ResultsCsvRejected = Type.Composite([
  Problem,
  Type.Object({ rows: Type.Optional(Type.Array(Type.Object({
    line: Type.Integer({ minimum: 1, description: 'The line of the file; 1 is the header.' }),
    column: Type.Union([Type.String(), Type.Null()], { description: 'The column the problem is in, as the file names it; null '
      + 'for the row as a whole.' }),
    reason: Type.String({ description: 'What is wrong and what to do, as a sentence for the person who made the file.' }),
  }, { additionalProperties: false }), { description: 'With a refused file: every problem it has, in the order of its lines '
    + '(at most the first 500).' })) }),
], { $id: 'ResultsCsvRejected', additionalProperties: false,
  description: 'A results file refused (`validation-error`): nothing was saved. `rows` holds every problem of the file, found in one '
    + 'pass, each at its line and column.' })

export const CONTENT_SCHEMAS = [EditConflictProblem, ResultsCsvRejected, ClubMember, ClubMemberList, MemberSave, ClubGroup,
  ClubGroupList, GroupSave, ClubEvent, ClubEventList, EventSave, ClubNews, ClubNewsList, NewsSave, ClubResult, ClubResultList,
  ResultSave, ResultsCsv, ResultsCsvOutcome, ImportOutcome]
