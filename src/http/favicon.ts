/**
 * The service's icon at /favicon.ico, which browsers ask for on every page of the site (the
 * dashboard, the booking pages, the API reference): a court in the dashboard's blue, 32×32, one PNG
 * in an ICO container. Without it each page load would log a 404.
 */
import type { FastifyInstance } from 'fastify'

const ICON = Buffer.from('AAABAAEAICAAAAEAIAAEAQAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAMtJREFUeNrVV9sNgCAM9I8Px2ARB3ERh/KLRdhIMSExPmiuovRs0h882yst0Hbd36QfZ590ShqSxqwhr/mvnLrsZAF1w7q3nGscX4jUbvWt4ZIIRLzW+YA6VZAZHkeORgrgPEKgaBTNvfSPquDQiJXfg3TUYOOVGCdGj267BnPCBTH3aM5rcGLltyBwOBH5HlcZfQE7iflvQGCvg7Qel/YSeQiYp4ChCG2PoflFxHIV2z5G5s8xRUNC0ZKZN6UUbTnFYEIzmlEMp1/KCgBPPT5tv8YcAAAAAElFTkSuQmCC', 'base64')

export function registerFavicon(app: FastifyInstance): void {
  app.get('/favicon.ico', { config: { access: { public: true } }, schema: { hide: true } }, (_request, reply) =>
    reply.type('image/x-icon').header('cache-control', 'public, max-age=604800').send(ICON))
}
