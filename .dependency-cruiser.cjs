// The layers of src/ and the directions their imports may take (npm run lint runs it after eslint).
// routes, pages and cli → services → db; domain imports nothing of the service; nothing imports a migration
// but the migrator; no circles. test/architecture/layers.test.ts shows each rule refusing a forbidden import.
/** @type {import('dependency-cruiser').IConfiguration} */
/* global module */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules import each other in a circle.',
      from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    { name: 'routes-call-services', severity: 'error', comment: 'Routes and pages reach the data through services, never src/db/ itself.',
      from: { path: '^src/(routes|pages)/' }, to: { path: '^src/db/' } },
    { name: 'domain-is-pure', severity: 'error', comment: 'src/domain/ holds the rules alone: it imports nothing else of the service.',
      from: { path: '^src/domain/' }, to: { path: '^src/', pathNot: '^src/domain/' } },
    { name: 'db-below-services', severity: 'error', comment: 'src/db/ is the bottom layer: it imports only itself and src/domain/.',
      from: { path: '^src/db/' }, to: { path: '^src/', pathNot: '^src/(db|domain)/|^src/schemas/' } },
    { name: 'db-names-api-shapes-only', severity: 'error',
      comment: 'src/db/ may name the API\'s shapes as types (a listing reads pages of them), never use a schema\'s value.',
      from: { path: '^src/db/' }, to: { path: '^src/schemas/', dependencyTypesNot: ['type-only'] } },
    { name: 'no-migration-imports', severity: 'error', comment: 'Only the migrator imports a migration; live code keeps its own constants.',
      from: { path: '^src/', pathNot: '^src/db/(migrate|migrations/)' }, to: { path: '^src/db/migrations/' } },
    { name: 'services-below-http', severity: 'error', comment: 'Services know nothing of HTTP, routes, pages or the command line.',
      from: { path: '^src/(services|mail|webhooks)/' }, to: { path: '^src/(routes|pages|http|cli)/' } },
    { name: 'routes-on-top', severity: 'error', comment: 'Routes, pages and the command line are the top: nothing below imports them.',
      from: { path: '^src/', pathNot: '^src/(routes|pages|cli|tools)/|^src/(app|server)\\.ts$' },
      to: { path: '^src/(routes|pages|cli)/' } },
    { name: 'sql-only-in-db', severity: 'error',
      comment: 'SQL lives in src/db/: elsewhere Kysely is named as a type (a database handle passed along), never used to build a query.',
      from: { path: '^src/', pathNot: '^src/db/' }, to: { path: '^node_modules/kysely/', dependencyTypesNot: ['type-only'] } },
    { name: 'schemas-below-services', severity: 'error', comment: 'Schemas describe the API; they import only other schemas and domain.',
      from: { path: '^src/schemas/' }, to: { path: '^src/', pathNot: '^src/(schemas|domain)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
