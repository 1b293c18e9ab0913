/** openapi: the OpenAPI description the server serves, of the public API or the dashboard's. */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Command } from 'commander'
import { buildApp } from '../../app.js'
import { adminOpenApiDocument } from '../../routes/admin/openapi.js'
import type { CliSession } from '../session.js'

/** openapi: writes the OpenAPI document. */
export function registerOpenApi(program: Command, cli: CliSession): void {
  const { io, open } = cli
  program.command('openapi').description('write the OpenAPI description the server serves')
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--admin', 'the dashboard API\'s description instead of the public API\'s')
    .action(async (options: { out?: string, admin?: boolean }) => {
      const ctx = await open()
      let document: unknown
      if (options.admin === true) document = await adminOpenApiDocument(ctx)
      else {
        const app = await buildApp(ctx, { logger: false })
        await app.ready()
        document = app.swagger()
        await app.close()
      }
      const text = `${JSON.stringify(document, null, 2)}\n`
      if (options.out === undefined) io.stdout(text)
      else {
        await fs.mkdir(path.dirname(path.resolve(options.out)), { recursive: true })
        await fs.writeFile(options.out, text)
      }
    })
}
