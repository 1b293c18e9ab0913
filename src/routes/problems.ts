/** Each problem `type` URI is dereferenceable: it serves a short page describing that problem. */
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { ProblemError, requestPath } from '../http/problems.js'
import { PROBLEM_KINDS, PROBLEM_TYPES, PROBLEMS_PATH, problemTypeUri } from '../http/problem-types.js'
import type { ProblemKind } from '../http/problem-types.js'
import { problemResponse, REQUEST_ID_HEADER } from '../http/responses.js'

const HTML = 'text/html; charset=utf-8'

function isProblemKind(value: string): value is ProblemKind {
  return Object.hasOwn(PROBLEM_TYPES, value)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** Inline code spans in the catalogue's descriptions become <code>. */
function renderText(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`
    + '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}'
    + 'code{background:#f3f3f3;padding:0 .2em}</style></head>'
    + `<body>${body}</body></html>`
}

export function problemsRoutes(app: FastifyInstance): void {
  const htmlResponse = (description: string) => ({
    description,
    headers: REQUEST_ID_HEADER,
    content: { 'text/html': { schema: Type.String() } },
  })

  app.get(PROBLEMS_PATH, {
    config: { access: { public: true } },
    schema: {
      operationId: 'listProblemTypes',
      summary: 'Problem types',
      description: 'A page listing every problem type the API uses.',
      tags: ['Meta'],
      security: [],
      response: { 200: htmlResponse('The list of problem types.') },
    },
  }, (_request, reply) => {
    const items = PROBLEM_KINDS.map((kind) =>
      `<li><a href="${problemTypeUri(kind)}"><code>${problemTypeUri(kind)}</code></a> — `
      + `${PROBLEM_TYPES[kind].status} ${escapeHtml(PROBLEM_TYPES[kind].title)}</li>`).join('')
    return reply.type(HTML).send(page('Problem types', `<h1>Problem types</h1><ul>${items}</ul>`))
  })

  app.get(`${PROBLEMS_PATH}/:kind`, {
    config: { access: { public: true } },
    schema: {
      operationId: 'describeProblemType',
      summary: 'One problem type',
      description: 'The page a problem document\'s `type` resolves to.',
      tags: ['Meta'],
      security: [],
      // Not an enum: an unknown kind is a missing page (404), not a malformed request.
      params: Type.Object({ kind: Type.String({ description: `The last segment of the type URI: ${PROBLEM_KINDS.join(', ')}.` }) }),
      response: {
        200: htmlResponse('What the problem means and what to do about it.'),
        400: problemResponse('The path is not a valid URL (a malformed percent-encoding).'),
        404: problemResponse('No such problem type.'),
      },
    },
  }, (request, reply) => {
    const { kind } = request.params as { kind: string }
    if (!isProblemKind(kind)) throw new ProblemError('not-found', `No resource at ${requestPath(request.url)}.`)
    const spec = PROBLEM_TYPES[kind]
    return reply.type(HTML).send(page(spec.title, `<h1>${escapeHtml(spec.title)}</h1>`
      + `<p>Type <code>${problemTypeUri(kind)}</code>, HTTP status ${spec.status}.</p>`
      + `<p>${renderText(spec.description)}</p><p><a href="${PROBLEMS_PATH}">All problem types</a></p>`))
  })
}
