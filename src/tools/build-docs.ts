/**
 * Builds the API reference page (the last step of `npm run build`): the OpenAPI document exactly
 * as the server serves it (the `club-platform openapi` command, on a throw-away database),
 * prerendered with Redoc into one self-contained HTML file, with its gzip and brotli variants and
 * the Content-Security-Policy that admits its two inline scripts by hash.
 *
 * Redoc 2 rather than the Redoc 3 inside @redocly/cli: Redoc 3 prerenders only the overview (every
 * operation is a separate client-side route, at paths outside /api/v1/docs) and sends telemetry;
 * Redoc 2 puts every operation in the HTML, so the page reads without JavaScript.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { runCli } from '../cli/main.js'
import { REFERENCE_PAGE_FILE, REFERENCE_PAGE_TITLE, referencePagePolicy } from '../http/api-reference.js'
import { OPENAPI_PATH } from '../http/openapi.js'
import { writeStaticPage } from '../http/static-page.js'
import type * as React from 'react'
import type * as ReactDom from 'react-dom/server'
import type * as Redoc from 'redoc'
import type * as Styled from 'styled-components'

type ReactModule = typeof React
type ReactDomServer = typeof ReactDom
type StyledComponents = typeof Styled
type RedocModule = typeof Redoc

/** Redoc's bundles are CommonJS whose exports Node cannot detect statically. */
const require = createRequire(import.meta.url)

/**
 * Redoc's options. hideHostname: the server's address is the page's own (the document's server
 * is `/`), and a host written at build time would differ from the browser's. The theme keeps
 * Redoc's layout and colours with the system's fonts (nothing is fetched).
 */
const REDOC_OPTIONS = {
  hideHostname: true,
  expandResponses: '200,201',
  requiredPropsFirst: true,
  jsonSampleExpandLevel: 3,
  theme: {
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
      code: { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace' },
    },
  },
}

/**
 * Redoc 2's sidebar shows Redocly's logo from their CDN once mounted. Pointed at an empty data:
 * URI it fails to load and hides itself, as it does offline; the link "API docs by Redocly" stays.
 */
const REMOTE_LOGO = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"'
const NO_LOGO = 'src:"data:,"'

/** JSON that can stand inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${String(char.charCodeAt(0))};`)
}

async function describeApi(): Promise<unknown> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-docs-'))
  try {
    const file = path.join(scratch, 'openapi.json')
    let errors = ''
    const code = await runCli(['openapi', '--out', file], {
      stdout: () => undefined,
      stderr: (text) => {
        errors += text
      },
      // The document does not depend on the settings; a scratch SQLite file keeps the build away from real data.
      env: { DATA_DIR: scratch, LOG_LEVEL: 'silent' },
    })
    if (code !== 0) throw new Error(`club-platform openapi failed: ${errors}`)
    return JSON.parse(await fs.readFile(file, 'utf8')) as unknown
  } finally {
    await fs.rm(scratch, { recursive: true, force: true })
  }
}

async function renderReferencePage(document: unknown): Promise<{ html: string, scriptHashes: string[] }> {
  const React = require('react') as ReactModule
  const { renderToString } = require('react-dom/server') as ReactDomServer
  const { ServerStyleSheet } = require('styled-components') as StyledComponents
  const { createStore, Redoc } = require('redoc') as RedocModule
  const standalone = await fs.readFile(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8')
  if (standalone.split(REMOTE_LOGO).length !== 2) throw new Error('Redoc\'s bundle changed: its remote logo was not found once')

  const store = await createStore(document as Parameters<RedocModule['createStore']>[0], OPENAPI_PATH, REDOC_OPTIONS)
  const sheet = new ServerStyleSheet()
  try {
    const body = renderToString(sheet.collectStyles(React.createElement(Redoc, { store })))
    const styles = sheet.getStyleTags()
    const state = await store.toJS()
    const scripts = [
      standalone.replace(REMOTE_LOGO, NO_LOGO).replace(/<\/(script)/gi, '<\\/$1'),
      `Redoc.hydrate(${scriptJson(state)}, document.getElementById('redoc'));`,
    ]
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(REFERENCE_PAGE_TITLE)}</title>
<meta name="description" content="Reference of the Club Platform HTTP API, rendered from ${OPENAPI_PATH}.">
<link rel="icon" href="data:,">
<style>body{margin:0;padding:0}</style>
${styles}
</head>
<body>
<main id="redoc">${body}</main>
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>
`
    return { html, scriptHashes: scripts.map(sha256) }
  } finally {
    sheet.seal()
  }
}

async function buildReferencePage(file = REFERENCE_PAGE_FILE): Promise<void> {
  const { html, scriptHashes } = await renderReferencePage(await describeApi())
  await writeStaticPage(file, html, { headers: {
    'content-security-policy': referencePagePolicy(scriptHashes),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  } })
}

async function main(): Promise<void> {
  const started = Date.now()
  await buildReferencePage()
  process.stdout.write(`API reference: ${path.relative(process.cwd(), REFERENCE_PAGE_FILE)} (${String(Date.now() - started)} ms)\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`build-docs: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
