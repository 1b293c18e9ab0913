import { ConfigError, environment } from '../config.js'
import { runCli } from './main.js'

let env: ReturnType<typeof environment>
try {
  env = environment()
} catch (error) {
  process.stderr.write(`club-platform: ${error instanceof ConfigError ? error.message : String(error)}\n`)
  process.exit(1)
}
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env,
})
process.exitCode = code
