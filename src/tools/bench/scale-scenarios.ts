/**
 * The scale run's scenarios (`npm run bench -- --scale`): wrk Lua scripts over the clubs
 * `scale-1` … `scale-N` of src/db/scale-seed.ts, the same for a small database and a large one.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SCALE_COURTS_PER_CLUB, SCALE_HISTORY_HOUR, SCALE_HORIZON_DAYS, SCALE_LISTS } from '../../db/scale-seed.js'
import { addDays, localDateOf } from '../../domain/zoned-time.js'
import { WRK_THREADS } from './measure.js'

export interface ScaleScenario {
  readonly name: string
  /** The Lua script's file. */
  readonly lua: string
  /** A user-facing figure: its p99 may grow at most 1.5× from the small run. */
  readonly bounded: boolean
  /**
   * Paths asked once each, unmeasured, before the measured run: the hits' scenario first fills the
   * cache with every page it asks for (1,400 at 100 clubs, 140 at 10), so that it measures hits,
   * not misses whose share differs between the sizes and with the machine's speed (a warm-up of
   * 3 s left 1 % of misses at 10,000 clubs on a machine that read 488 pages a second, and they
   * were the p99).
   */
  readonly fill?: readonly string[]
}

/** What the scripts need of a seeded database. */
export interface ScaleTargets {
  readonly clubs: number
  /** API keys of the first clubs (read:*), in club order. */
  readonly keys: readonly string[]
  /** Dashboard sessions: a club's slug and its admin's session cookie. */
  readonly sessions: readonly (readonly [string, string])[]
  /** The courts of the first clubs, in club order: what the booking scenario books. */
  readonly courts: readonly (readonly string[])[]
  readonly now: number
}

/** wrk's setup hook: each thread learns its number (1, 2, …) and seeds its own random numbers. */
const THREADS = `local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end
function init()
  math.randomseed(thread_number * 7919 + os.time())
end`

const list = (values: readonly string[]) => `{${values.map((value) => `"${value}"`).join(',')}}`

/** The hours the booking scenario books, every day: the opening hours but the history's. */
const BOOKED_HOURS = Array.from({ length: 14 }, (_, i) => 8 + i).filter((hour) => hour !== SCALE_HISTORY_HOUR)
const BOOKED_DAYS = SCALE_HORIZON_DAYS - 1

/** The clubs whose courts pages the "cache hits" scenario asks for: 100 × 14 days, pages the response cache holds. */
const HELD_CLUBS = 100

/**
 * `cold`: for a server with the response cache off, every request a miss; `warm`: for a server
 * with it on. A scenario is `bounded` when its p99 may grow at most 1.5× from the small run; the
 * two over every club with the cache on are not: at 10 clubs the cache holds every page, at
 * thousands it cannot, and their figures are the cache's hit rate (reported beside them).
 */
export function scaleScenarios(targets: ScaleTargets, dir: string,
  cookieName: string): { cold: ScaleScenario[], warm: ScaleScenario[] } {
  const today = localDateOf(targets.now, 'UTC')
  const tomorrow = addDays(today, 1)
  const ahead = Array.from({ length: 14 }, (_, d) => addDays(today, d))
  const past = Array.from({ length: 730 }, (_, d) => addDays(today, -d))
  const write = (name: string, text: string) => {
    const file = path.join(dir, `${name}.lua`)
    fs.writeFileSync(file, `${THREADS}\n${text}`)
    return file
  }
  const clubs = String(targets.clubs)
  const courts = (count: string) => `local days = ${list(ahead)}
request = function()
  return wrk.format("GET", "/api/v1/public/scale-" .. math.random(${count}) .. "/courts?date=" .. days[math.random(#days)])
end`
  const lists = `local keys = ${list(targets.keys)}
local lists = {${Object.entries(SCALE_LISTS).map(([name, size]) => `{"${name}", ${String(size)}}`).join(',')}}
request = function()
  local chosen = lists[math.random(#lists)]
  return wrk.format("GET", "/api/v1/" .. chosen[1] .. "?limit=10&offset=" .. math.random(0, chosen[2] - 1),
    { Authorization = "Bearer " .. keys[math.random(#keys)] })
end`
  return {
    cold: [
      { name: 'courts, each club in turn (cache off)', bounded: true, lua: write('courts-cold', `local n = 0
request = function()
  local club = 1 + (n * ${String(WRK_THREADS)} + thread_number - 1) % ${clubs}
  n = n + 1
  return wrk.format("GET", "/api/v1/public/scale-" .. club .. "/courts?date=${tomorrow}")
end`) },
      { name: 'read API lists, random clubs, lists and offsets (cache off)', bounded: true, lua: write('lists-cold', lists) },
    ],
    warm: [
      { name: `courts, ${String(HELD_CLUBS)} clubs' pages (cache on, hits)`, bounded: true,
        fill: Array.from({ length: Math.min(targets.clubs, HELD_CLUBS) }, (_, c) => ahead
          .map((day) => `/api/v1/public/scale-${String(c + 1)}/courts?date=${day}`)).flat(),
        lua: write('courts-held', courts(String(Math.min(targets.clubs, HELD_CLUBS)))) },
      { name: 'courts, random clubs and days (cache on)', bounded: false, lua: write('courts-warm', courts(clubs)) },
      { name: 'read API lists, random clubs, lists and offsets (cache on)', bounded: false, lua: write('lists-warm', lists) },
      ...dashboardScenarios(targets, write, cookieName, past),
      { name: 'booking, distinct free slots', bounded: true, lua: write('book', bookingScript(targets, tomorrow)) },
    ],
  }
}

function dashboardScenarios(targets: ScaleTargets, write: (name: string, text: string) => string, cookieName: string,
  past: readonly string[]): ScaleScenario[] {
  const sessions = `local sessions = {${targets.sessions.map(([slug, cookie]) => `{"${slug}","${cookie}"}`).join(',')}}
local days = ${list(past)}
local function get(path)
  local session = sessions[math.random(#sessions)]
  return wrk.format("GET", "/api/admin/v1/clubs/" .. session[1] .. path, { Cookie = "${cookieName}=" .. session[2] })
end`
  return [
    { name: 'dashboard, a day\'s bookings (random days of two years)', bounded: true, lua: write('dashboard-day', `${sessions}
request = function()
  return get("/bookings?date=" .. days[math.random(#days)])
end`) },
    { name: 'dashboard, search of 30 days by text', bounded: true, lua: write('dashboard-search', `${sessions}
request = function()
  local from = math.random(31, #days)
  return get("/bookings/search?q=guest&from=" .. days[from] .. "&to=" .. days[from - 30])
end`) },
  ]
}

/**
 * Distinct free one-hour slots: each request the next of the thread's own (threads interleave),
 * spread over the clubs, their courts, the days from tomorrow to the horizon and the hours the history leaves free.
 */
function bookingScript(targets: ScaleTargets, tomorrow: string): string {
  const days = Array.from({ length: BOOKED_DAYS }, (_, d) => addDays(tomorrow, d))
  const courts = targets.courts.map((ids, c) => `{"scale-${String(c + 1)}",${list(ids).slice(1, -1)}}`)
  return `local courts = {${courts.join(',\n')}}
local days = ${list(days)}
local hours = {${BOOKED_HOURS.join(',')}}
local n = 0
request = function()
  local k = n * ${String(WRK_THREADS)} + thread_number - 1
  n = n + 1
  local club = courts[1 + k % #courts]
  local rest = math.floor(k / #courts)
  local court = club[2 + rest % ${String(SCALE_COURTS_PER_CLUB)}]
  local slot = math.floor(rest / ${String(SCALE_COURTS_PER_CLUB)})
  local day = days[1 + slot % #days]
  local hour = hours[1 + math.floor(slot / #days) % #hours]
  local body = string.format('{"court_id":"%s","start_time":"%sT%02d:00:00Z","end_time":"%sT%02d:00:00Z",'
    .. '"booker_name":"Bench","booker_email":"s%d@example.org"}', court, day, hour, day, hour + 1, k)
  return wrk.format("POST", "/api/v1/public/" .. club[1] .. "/courts/book", { ["Content-Type"] = "application/json" }, body)
end`
}

/** How many distinct slots the booking scenario has before it would ask for one a second time. */
export function bookableSlots(targets: ScaleTargets): number {
  return targets.courts.length * SCALE_COURTS_PER_CLUB * BOOKED_DAYS * BOOKED_HOURS.length
}
