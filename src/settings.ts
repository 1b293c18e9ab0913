/**
 * The settings the server and the command line read (src/config.ts), as `club-platform-server --help`
 * lists them: the names, the defaults and a line on each. The README's "Settings" table says the same
 * at length; test/processes/server-help.test.ts holds the two to the same names and defaults.
 */
export interface SettingHelp {
  /** The variables of one row: a setting, or a pair that works together. */
  readonly names: readonly string[]
  /** The default as the README writes it (the pair's defaults separated by " / "). */
  readonly default: string
  readonly meaning: string
}

export const SETTINGS: readonly SettingHelp[] = [
  { names: ['PORT'], default: '3000', meaning: 'TCP port of the HTTP server (0–65535)' },
  { names: ['HOST'], default: '127.0.0.1', meaning: 'address to listen on (0.0.0.0 for all interfaces)' },
  { names: ['DATA_DIR'], default: './data', meaning: 'local state; the SQLite database is DATA_DIR/club-platform.sqlite' },
  { names: ['DATABASE_URL'], default: 'unset', meaning: 'postgres://… selects PostgreSQL; sqlite:PATH a SQLite file elsewhere' },
  { names: ['DATABASE_POOL_SIZE', 'DATABASE_POOL_WAIT_MS', 'DATABASE_POOL_QUEUE'], default: '10 / 2000 / 1000',
    meaning: 'PostgreSQL connections per process, how long a request waits for one, how many may wait' },
  { names: ['LOG_LEVEL'], default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  { names: ['RATE_LIMIT_CAPACITY', 'RATE_LIMIT_PER_MINUTE'], default: '60 / 60', meaning: 'per-key token bucket of the API' },
  { names: ['DAILY_QUOTA'], default: '10000', meaning: 'authorised requests per key and UTC day' },
  { names: ['REDIS_URL'], default: 'unset', meaning: 'redis://host:6379: budgets shared by every instance' },
  { names: ['REDIS_KEY_PREFIX'], default: 'club-platform:', meaning: 'prefix of the keys written to Redis' },
  { names: ['SMTP_URL'], default: 'unset', meaning: 'smtp:// or smtps:// relay; unset: mails are files in DATA_DIR/mail/' },
  { names: ['MAIL_FROM'], default: 'Club Platform <no-reply@club-platform.invalid>', meaning: 'sender of the mails' },
  { names: ['MAIL_CONNECTIONS'], default: '16', meaning: 'mails a process sends at once' },
  { names: ['RETENTION_INTERVAL_MINUTES', 'RETENTION_BATCH_SIZE'], default: '60 / 1000',
    meaning: 'how often personal data past its retention is removed, and the rows of each transaction' },
  { names: ['BOOKING_MAX_OPEN_PER_EMAIL'], default: '2', meaning: 'upcoming bookings one address may hold per club' },
  { names: ['BOOKING_MAX_PER_ADDRESS_PER_DAY'], default: '10', meaning: 'bookings one address may make in 24 hours, all clubs' },
  { names: ['PUBLIC_RATE_CAPACITY', 'PUBLIC_RATE_PER_MINUTE'], default: '60 / 60', meaning: 'per-IP bucket of the courts listing' },
  { names: ['BOOKING_RATE_CAPACITY', 'BOOKING_RATE_PER_MINUTE'], default: '5 / 10', meaning: 'per-IP bucket of booking requests' },
  { names: ['WORKERS'], default: '1', meaning: 'server processes sharing the port (auto: one per core)' },
  { names: ['OPS_ALLOW'], default: '127.0.0.0/8,::1/128', meaning: 'addresses that may call /healthz, /readyz, /metrics' },
  { names: ['SHUTDOWN_GRACE_MS'], default: '10000', meaning: 'how long a stopping server finishes requests in flight' },
  { names: ['CLOCK_OFFSET_SECONDS'], default: '0', meaning: 'moves the service\'s clock (demonstrations and tests only)' },
  { names: ['ENV_FILE'], default: './.env', meaning: 'a file of NAME=value lines read at start; set variables win' },
  { names: ['TRUST_PROXY'], default: 'false', meaning: 'true, a hop count, or proxy addresses: trust X-Forwarded-For' },
  { names: ['PUBLIC_URL'], default: 'http://HOST:PORT/', meaning: 'the service\'s address as people reach it (links in mails)' },
  { names: ['SESSION_IDLE_HOURS', 'SESSION_MAX_DAYS'], default: '12 / 7', meaning: 'a dashboard session\'s idle and absolute end' },
  { names: ['INVITATIONS_PER_ADDRESS_PER_DAY', 'INVITATIONS_PER_CLUB_PER_DAY'], default: '3 / 30',
    meaning: 'invitation mails per address and per club in 24 hours' },
  { names: ['SIGN_IN_LINKS_PER_ADDRESS_PER_DAY'], default: '10', meaning: 'sign-in link mails per address in 24 hours' },
  { names: ['SIGN_IN_RATE_CAPACITY', 'SIGN_IN_RATE_PER_HOUR'], default: '10 / 10', meaning: 'per-IP bucket of dashboard sign-ins' },
  { names: ['WEBHOOKS_ALLOW_PRIVATE_NETWORKS'], default: 'false', meaning: 'true: webhooks may reach private networks (tests only)' },
  { names: ['WEBHOOK_TIMEOUT_SECONDS'], default: '15', meaning: 'how long one webhook delivery may take' },
  { names: ['WEBHOOK_MAX_ENDPOINTS_PER_CLUB', 'WEBHOOK_DELIVERIES_PER_MINUTE'], default: '10 / 600',
    meaning: 'webhook endpoints per club, delivery attempts per club and minute' },
  { names: ['RESPONSE_CACHE_MB'], default: '32', meaning: 'memory for cached list pages and court grids; 0: off' },
  { names: ['READER_THREADS'], default: '2', meaning: 'threads that read uncached list pages (SQLite); 0: none' },
]

/** What `--help` prints: the options, then the settings a line each. */
export function serverUsage(): string {
  const width = Math.max(...SETTINGS.flatMap((setting) => setting.names.map((name) => name.length)))
  const rows = SETTINGS.flatMap((setting) => {
    const defaults = setting.default.split(' / ')
    return setting.names.map((name, i) => {
      const value = setting.names.length === 1 ? setting.default : (defaults[i] ?? setting.default)
      return `  ${name.padEnd(width)}  ${setting.meaning} (default: ${value})`
    })
  })
  return ['Usage: node dist/server.js [--demo]', '',
    'Starts the Club Platform server: migrates the database, then serves the APIs, the dashboard, the widget and the booking',
    'pages. Settings come from the environment (and a .env file); README.md, "Settings", says more of each.', '',
    'Options:', '  --demo  create or refresh the demo club first and print a new demo API key',
    '  --help  print this and exit, touching nothing', '', 'Settings:', ...rows, ''].join('\n')
}

/** The server's arguments: `--demo`, `--help`; anything else is refused with the line to print. */
export function serverArguments(argv: readonly string[]): { demo: boolean, help: boolean } | { refused: string } {
  const unknown = argv.find((argument) => argument !== '--demo' && argument !== '--help')
  if (unknown !== undefined) return { refused: `unknown option "${unknown}" (options: --demo, --help)` }
  return { demo: argv.includes('--demo'), help: argv.includes('--help') }
}
