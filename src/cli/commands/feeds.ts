/** feeds: a club's private calendar feeds of its bookings, made (the address printed once), listed and revoked. */
import type { Command } from 'commander'
import { InvalidInput, NotFound } from '../../domain/errors.js'
import { OPERATOR } from '../../services/audit.js'
import { createCalendarFeed, eventsFeedPath, listClubCalendarFeeds, privateFeedPath, revokeClubCalendarFeed }
  from '../../services/calendar-feeds.js'
import type { CalendarFeed } from '../../services/calendar-feeds.js'
import { requireClub } from '../../services/clubs.js'
import { idArgument, textOption } from '../options.js'
import { jsonOption, table } from '../session.js'
import type { CliSession } from '../session.js'

function feedJson(feed: CalendarFeed) {
  return { id: feed.id, name: feed.name, show_names: feed.showNames, status: feed.revokedAt === null ? 'active' : 'revoked',
    created_at: feed.createdAt, revoked_at: feed.revokedAt }
}

/** feeds create, list and revoke: the dashboard's operations (src/services/calendar-feeds.ts) for operators. */
export function registerFeeds(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  const feeds = program.command('feeds').description('private calendar feeds of a club\'s bookings: create, list, revoke')
  feeds.command('create').description('make a feed; its address is printed once and cannot be shown again')
    .requiredOption('--club <slug>', 'the club whose bookings it shows')
    .requiredOption('--name <name>', 'what it is for, e.g. "Office calendar"')
    .option('--show-names', 'name the booker in each event (never an e-mail address); default: court and time alone')
    .addOption(jsonOption())
    .action(async (options: { club: string, name: string, showNames?: boolean, json?: boolean }) => {
      const name = textOption('--name', options.name, 100)
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const { feed, token } = await createCalendarFeed(ctx.db, clock, { clubId: club.id, name,
        showNames: options.showNames === true, actor: OPERATOR })
      const url = new URL(privateFeedPath(token).slice(1), ctx.config.publicUrl).href
      print(options.json === true, { ...feedJson(feed), url }, `Created calendar feed ${feed.id} for ${club.slug}.\n`
      + 'Its address is its only key; hand it to the calendar that subscribes (webcal:// works too). It cannot be shown again:\n\n'
      + `  ${url}\n`)
    })
  feeds.command('list').description('list a club\'s feeds (never their addresses) and its public events feed')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (options: { club: string, json?: boolean }) => {
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      const found = await listClubCalendarFeeds(ctx.db, club.id)
      const events = new URL(eventsFeedPath(club.slug).slice(1), ctx.config.publicUrl).href
      print(options.json === true, { items: found.map(feedJson), events_feed_url: events }, `${found.length === 0
        ? `No private calendar feeds for ${club.slug}.`
        : table(['id', 'name', 'names', 'status', 'created'], found.map((feed) => [feed.id, feed.name, feed.showNames ? 'shown' : 'hidden',
            feed.revokedAt === null ? 'active' : `revoked ${feed.revokedAt}`, feed.createdAt]))}\nPublic events feed: ${events}`)
    })
  feeds.command('revoke').description('revoke a feed; its address answers 404 from now on')
    .argument('<feed-id>', 'the id shown by feeds list')
    .requiredOption('--club <slug>', 'the club')
    .addOption(jsonOption())
    .action(async (feedId: string, options: { club: string, json?: boolean }) => {
      const id = idArgument(feedId, 'feed', 'feeds list')
      const ctx = await migrated()
      const club = await requireClub(ctx.db, options.club)
      try {
        const feed = await revokeClubCalendarFeed(ctx.db, clock, { clubId: club.id, feedId: id, actor: OPERATOR })
        print(options.json === true, feedJson(feed), `Revoked calendar feed ${id}.`)
      } catch (error) {
        if (error instanceof NotFound) throw new InvalidInput(`${club.slug} has no calendar feed with the id ${id}`)
        throw error
      }
    })
}
