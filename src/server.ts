/**
 * Starts the service: reads the configuration, builds the context (migrating the database), builds
 * the app and listens. `--demo` loads the demo club first and prints a key and a curl line.
 */
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, readConfig } from './config.js'
import { createContext } from './context.js'
import type { AppContext } from './context.js'
import { loadDemo } from './services/demo.js'

async function main(argv: readonly string[]): Promise<void> {
  const config = readConfig()
  const context = await createContext(config, { migrate: true })
  let app: FastifyInstance | undefined
  try {
    const demo = argv.includes('--demo') ? await loadDemo(context.db, context.clock, { apiKeys: context.apiKeys }) : undefined
    app = await buildApp(context)
    const address = await app.listen({ port: config.port, host: config.host })
    context.mail.start()
    app.log.info({ mail: context.mail.transportDescription }, 'mail worker started')
    if (demo !== undefined) {
      const base = address.replace('://[::1]', '://localhost').replace('://127.0.0.1', '://localhost')
      process.stdout.write(`\nDemo club "${demo.clubSlug}" is loaded. Its API key (all scopes), shown once:\n\n`
        + `  ${demo.apiKey}\n\nTry:\n\n  curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/api/v1/groups\n\n`
        + `Court availability (public, no key): ${base}/api/v1/public/${demo.clubSlug}/courts\n`
        + `API reference: ${base}/api/v1/docs\n\n`)
    }
  } catch (error) {
    await shutdown(app, context)
    throw error
  }
  const stop = () => {
    void shutdown(app, context).then(() => process.exit(0), () => process.exit(1))
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

async function shutdown(app: FastifyInstance | undefined, context: AppContext): Promise<void> {
  await app?.close()
  await context.close()
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof ConfigError
    ? error.message
    : error instanceof Error ? error.stack ?? error.message : String(error)
  process.stderr.write(`club-platform: ${message}\n`)
  process.exit(1)
})
