/** demo: the demo club and a key with every scope. */
import type { Command } from 'commander'
import { loadDemo, revokedDemoKeysNote } from '../../services/demo.js'
import { jsonOption } from '../session.js'
import type { CliSession } from '../session.js'

/** demo: creates or refreshes the demo club. */
export function registerDemo(program: Command, cli: CliSession): void {
  const { clock, migrated, print } = cli
  program.command('demo').description('create or refresh the demo club and print a new key with every scope')
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const ctx = await migrated()
      const demo = await loadDemo(ctx.db, clock)
      const revoked = revokedDemoKeysNote(demo)
      print(options.json === true, { club_slug: demo.clubSlug, club_id: demo.clubId, api_key: demo.apiKey, key_id: demo.keyId,
        revoked_keys: demo.revokedKeys },
      `Demo club "${demo.clubSlug}" is ready. API key with every scope (shown once):\n\n  ${demo.apiKey}\n`
      + (revoked === '' ? '' : `\n${revoked}\n`))
    })
}
