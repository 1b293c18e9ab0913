// The layers of src/ and the directions their imports may take (npm run lint runs it after eslint).
// routes, pages and cli → services → db; domain imports nothing of the service; nothing imports a migration
// but the migrator; no circles. test/layers.test.ts shows a forbidden import failing the check.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules import each other in a circle.',
      from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    { name: 'routes-call-services', severity: 'error', comment: 'Routes and pages reach the data through services, never src/db/ itself.',
      from: { path: '^src/(routes|pages)/' }, to: { path: '^src/db/' } },
    { name: 'domain-is-pure', severity: 'error', comment: 'src/domain/ holds the rules alone: it imports nothing else of the service.',
      from: { path: '^src/domain/' }, to: { path: '^src/', pathNot: '^src/domain/' } },
    { name: 'db-below-services', severity: 'error', comment: 'src/db/ is the bottom layer: it imports only itself and src/domain/.',
      from: { path: '^src/db/' }, to: { path: '^src/', pathNot: '^src/(db|domain)/|^src/clock\\.ts$' } },
    { name: 'no-migration-imports', severity: 'error', comment: 'Only the migrator imports a migration; live code keeps its own constants.',
      from: { path: '^src/', pathNot: '^src/db/(migrate|migrations/)' }, to: { path: '^src/db/migrations/' } },
    { name: 'services-below-http', severity: 'error', comment: 'Services know nothing of HTTP, routes, pages or the command line.',
      from: { path: '^src/(services|mail|webhooks)/' }, to: { path: '^src/(routes|pages|http|cli)/' } },
    { name: 'schemas-below-services', severity: 'error', comment: 'Schemas describe the API; they import only other schemas and domain.',
      from: { path: '^src/schemas/' }, to: { path: '^src/', pathNot: '^src/(schemas|domain)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
