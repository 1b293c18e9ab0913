/** The scenarios: what each sends, to the Node.js generator one request at a time, to wrk as a fixed request or a Lua script. */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { addDays, localDateOf, localToInstant } from '../../domain/zoned-time.js'
import { WRK_THREADS } from './measure.js'
import type { Scenario } from './measure.js'
import { PLANNER_BOOKINGS, PLANNER_COURTS, id } from './seed.js'
import type { Seeded } from './seed.js'

const auth = (key: string) => ({ authorization: `Bearer ${key}` })
/** How many items each list of an average club has: misses read pages anywhere in them. */
const LISTS = [['groups', 40], ['events', 200], ['news', 500], ['competition-results', 2_000]] as const

export function listScenario(path: string, key: string, name = `GET ${path}`): Scenario {
  return { name, wrk: 'fixed', requests: () => ({ method: 'GET', path, headers: auth(key) }) }
}

/** wrk's setup hook for a Lua script: each thread's state gets its number (1, 2, …) as `thread_number`. */
const NUMBERED_THREADS = `local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end`

/** Every request a random club, list and offset: with 1,000 clubs the response cache holds almost none of them. */
export function missScenario(seeded: Seeded, dir: string, name: string): Scenario {
  const keys = seeded.keys.slice(1)
  const lua = path.join(dir, `miss-${randomUUID()}.lua`)
  fs.writeFileSync(lua, `local keys = {${keys.map((key) => `"${key}"`).join(',')}}
local lists = {${LISTS.map(([list, size]) => `{"${list}", ${String(size)}}`).join(',')}}
${NUMBERED_THREADS}
-- Each thread's Lua state starts with the same random seed: unseeded, both threads would ask for the same pages.
function init()
  math.randomseed(thread_number * 7919 + os.time())
end
request = function()
  local list = lists[math.random(#lists)]
  local path = "/api/v1/" .. list[1] .. "?offset=" .. math.random(0, list[2] - 1)
  return wrk.format("GET", path, { Authorization = "Bearer " .. keys[math.random(#keys)] })
end
`)
  return { name, wrk: 'script', lua, requests: () => {
    const [list, size] = LISTS[Math.floor(Math.random() * LISTS.length)] ?? LISTS[0]
    return { method: 'GET', path: `/api/v1/${list}?offset=${String(Math.floor(Math.random() * size))}`,
      headers: auth(keys[Math.floor(Math.random() * keys.length)] ?? '') }
  } }
}

/**
 * Distinct free one-hour slots: 11 courts × 14 hours × 13 days per club, club after club. Court 01
 * is left out: its weekly reservation (Tuesdays 17:00–19:00) made 2 of its slots per Tuesday a
 * slot conflict, the ~22 non-201 answers of a full round. Every booking of the scenario is free,
 * so any non-2xx answer it reports is a defect.
 */
const BOOKABLE_COURTS = 11

function bookingScenario(seeded: Seeded, now: number, dir: string): Scenario {
  const tomorrow = addDays(localDateOf(now, 'Europe/Berlin'), 1)
  const days = Array.from({ length: 13 }, (_, d) => addDays(tomorrow, d))
  const at = (day: string, minutes: number) => new Date(localToInstant(day, minutes, 'Europe/Berlin')).toISOString()
  const perClub = BOOKABLE_COURTS * 14 * days.length
  const slot = (n: number) => {
    const c = 1 + (Math.floor(n / perClub) % (seeded.slugs.length - 1))
    const s = n % perClub
    const day = days[Math.floor(s / (BOOKABLE_COURTS * 14))] ?? tomorrow
    const minutes = (8 + (Math.floor(s / BOOKABLE_COURTS) % 14)) * 60
    return { c, court: id(1 + (s % BOOKABLE_COURTS), 'f6000000', c), start: at(day, minutes), end: at(day, minutes + 60) }
  }
  const body = (n: number) => {
    const { court, start, end } = slot(n)
    return JSON.stringify({ court_id: court, start_time: start, end_time: end, booker_name: 'Bench',
      booker_email: `b${String(n)}@example.org` })
  }
  let next = 0
  // wrk's Lua has no time zones: it gets the instants of every slot hour of the 13 days, computed here.
  const lua = path.join(dir, `book-${randomUUID()}.lua`)
  const hours = days.flatMap((day) => Array.from({ length: 14 }, (_, h) => `{"${at(day, (8 + h) * 60)}","${at(day, (9 + h) * 60)}"}`))
  // The script leaves the first club to the requests sent from here (the warm-up and the baseline's sample).
  fs.writeFileSync(lua, `local slugs = {${seeded.slugs.slice(2).map((slug) => `"${slug}"`).join(',')}}
local hours = {${hours.join(',')}}
local n = 0
${NUMBERED_THREADS}
local perClub = ${String(BOOKABLE_COURTS)} * #hours
-- The slots are split between the threads, and each thread's share between the runs (args: this
-- run's number, the number of runs): no two runs of a scenario ask for the same slot, whatever the
-- number of clubs (a share must outlast a round: some 5,000 bookings with 200 clubs or more).
function init(args)
  local perThread = math.floor(#slugs * perClub / ${String(WRK_THREADS)})
  local perRun = math.floor(perThread / tonumber(args[2] or "1"))
  n = perThread * (thread_number - 1) + perRun * tonumber(args[1] or "0")
end
request = function()
  n = n + 1
  local c = math.floor(n / perClub) % #slugs
  local s = n % perClub
  local hour = hours[math.floor(s / ${String(BOOKABLE_COURTS)}) + 1]
  local court = string.format("f6000000-0000-4000-8000-%012x", 1 + (s % ${String(BOOKABLE_COURTS)}) + (c + 2) * 1000003)
  local body = '{"court_id":"' .. court .. '","start_time":"' .. hour[1] .. '","end_time":"' .. hour[2]
    .. '","booker_name":"Bench","booker_email":"w' .. n .. '@example.org"}'
  return wrk.format("POST", "/api/v1/public/" .. slugs[c + 1] .. "/courts/book", { ["Content-Type"] = "application/json" }, body)
end
`)
  return { name: 'POST /api/v1/public/{club}/courts/book (distinct free slots)', wrk: 'script', lua, requests: () => {
    const n = next++
    return { method: 'POST', path: `/api/v1/public/${seeded.slugs[slot(n).c] ?? ''}/courts/book`,
      headers: { 'content-type': 'application/json' }, body: body(n) }
  } }
}

/** The planner's day (src/routes/admin/planner.ts) of the 10× club, as the dashboard reads it. */
export const PLANNER_SCENARIO = `GET /api/admin/v1/clubs/{club}/planner (${String(PLANNER_COURTS)} courts, ${String(PLANNER_BOOKINGS)} bookings)`
export const COURTS_SCENARIO = 'GET /api/v1/public/{club}/courts (12 courts, a full day)'

/** `session`: the cookie header of a dashboard session of the 10× club (the planner's scenario). */
export function scenarios(seeded: Seeded, now: number, dir: string, session: string): Scenario[] {
  const average = seeded.keys[1] ?? ''
  const large = seeded.keys[0] ?? ''
  const tomorrow = addDays(localDateOf(now, 'Europe/Berlin'), 1)
  return [
    ...LISTS.map(([list]) => listScenario(`/api/v1/${list}`, average)),
    missScenario(seeded, dir, 'GET lists, every request a different club and offset (cache misses)'),
    listScenario('/api/v1/competition-results?offset=0', large, 'GET /api/v1/competition-results?offset=0 (10× club)'),
    listScenario('/api/v1/competition-results?offset=10000', large, 'GET /api/v1/competition-results?offset=10000 (10× club)'),
    listScenario('/api/v1/groups', large, 'GET /api/v1/groups (10× club)'),
    { ...listScenario('/api/v1/groups', seeded.exhausted), name: 'GET /api/v1/groups with an exhausted key (429)' },
    { name: COURTS_SCENARIO, wrk: 'fixed',
      requests: () => ({ method: 'GET', path: `/api/v1/public/${seeded.slugs[1] ?? ''}/courts?date=${tomorrow}`, headers: {} }) },
    { name: PLANNER_SCENARIO, wrk: 'fixed', requests: () => ({ method: 'GET',
      path: `/api/admin/v1/clubs/large/planner?date=${seeded.plannerDate}`, headers: { cookie: session } }) },
    bookingScenario(seeded, now, dir),
    ...staticScenarios(),
  ]
}

/** The booking widget and the dashboard's script, as a browser fetches them: brotli, from the precompressed copies. */
function staticScenarios(): Scenario[] {
  const browser = { 'accept-encoding': 'gzip, deflate, br' }
  const script = fs.readdirSync('dist/dashboard/assets').find((name) => name.endsWith('.js'))
  return [
    { name: 'GET /widget/v1/club-booking.js (brotli)', wrk: 'fixed',
      requests: () => ({ method: 'GET', path: '/widget/v1/club-booking.js', headers: browser }) },
    ...(script === undefined
      ? []
      : [{ name: 'GET /dashboard/assets/index-….js (brotli)', wrk: 'fixed' as const,
          requests: () => ({ method: 'GET', path: `/dashboard/assets/${script}`, headers: browser }) }]),
  ]
}
