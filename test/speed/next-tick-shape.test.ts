/**
 * The server process keeps the shape of Node's next-tick objects (src/speed/next-tick-shape.ts): after
 * full garbage collections with ticks between them, the sites in `process.nextTick` that build
 * each tick object are still monomorphic. A plain Node.js process, probed the same way, has them
 * megamorphic: that is what the module prevents, and what this test would see without it. A
 * Node.js that builds tick objects with a class (26.12 on) has no such sites, which is checked
 * instead.
 *
 * The probe is loaded with `--require` and runs on SIGUSR2: eight rounds of ten ticks and two full
 * collections, then V8's description of `process.nextTick` (`%DebugPrint`, which lists the state of
 * each feedback slot) on stdout, then exit.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../helpers/server-process.js'

const PROBE = `'use strict';
const ticks = (n) => new Promise((resolve) => {
  let left = n;
  const next = () => { if (--left === 0) resolve(); else process.nextTick(next); };
  process.nextTick(next);
});
process.on('SIGUSR2', async () => {
  for (let round = 0; round < 8; round++) {
    await ticks(10);
    globalThis.gc();
    globalThis.gc();
  }
  await ticks(10);
  // V8 prints through C's stdout, which loses what a non-blocking pipe does not take at once.
  process.stdout._handle?.setBlocking?.(true);
  %DebugPrint(process.nextTick);
  process.exit(0);
});
process.stderr.write('probe armed\\n');
`

let dir: string
let probe: string

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'club-platform-tick-shape-'))
  probe = path.join(dir, 'probe.cjs')
  await fs.writeFile(probe, PROBE)
})

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const PROBE_OPTIONS = ['--expose-gc', '--allow-natives-syntax', '--require'] as const

/** The states of the literal's define sites in `process.nextTick`, from the probe's output. */
function defineSites(output: string): string[] {
  return [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] ?? '')
}

/** Signals the probe and collects the process's stdout until it has exited and its output is read. */
async function probed(child: ChildProcess): Promise<string> {
  const chunks: string[] = []
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()))
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
  child.kill('SIGUSR2')
  expect(await closed).toBe(0)
  return chunks.join('')
}

/**
 * Node.js builds each tick object as an object literal with symbol keys (20, 24, and 26 up to 26.10 at least); from
 * 26.12 on, with `new TickObject(…)`, a class, whose instances have one shape that no collection loses.
 */
const BUILDS_LITERAL = process.nextTick.toString().includes('[async_id_symbol]')

describe.runIf(BUILDS_LITERAL)('the shape of next-tick objects', () => {
  it('stays monomorphic in the server process, after requests and full collections', async () => {
    const server = await startServer({ DATA_DIR: path.join(dir, 'data') }, 1, [...PROBE_OPTIONS, probe])
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const sites = defineSites(await probed(server.child))
    // Two symbol keys and two named ones.
    expect(sites.length).toBeGreaterThanOrEqual(4)
    expect(new Set(sites)).toEqual(new Set(['MONOMORPHIC']))
  })

  it('is lost in a plain Node.js process probed the same way', async () => {
    const child = spawn(process.execPath, [...PROBE_OPTIONS, probe, '-e', 'setInterval(() => {}, 1000)'])
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('probe armed')) resolve()
      })
    })
    const sites = defineSites(await probed(child))
    expect(sites).toContain('MEGAMORPHIC')
  })
})

describe.skipIf(BUILDS_LITERAL)('the shape of next-tick objects, on a Node.js that builds them with a class', () => {
  it('has no literal define sites to keep: a plain Node.js process probed the same way shows none', async () => {
    expect(process.nextTick.toString()).toContain('new TickObject(')
    const child = spawn(process.execPath, [...PROBE_OPTIONS, probe, '-e', 'setInterval(() => {}, 1000)'])
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('probe armed')) resolve()
      })
    })
    const output = await probed(child)
    expect(output).toContain('SharedFunctionInfo')
    expect(defineSites(output)).toEqual([])
  })
})
