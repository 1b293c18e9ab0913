/**
 * Keeps the shape of Node's next-tick objects for the life of the process. Imported first by
 * src/server.ts, so that it runs before anything else the process does.
 *
 * `process.nextTick` builds each queued callback as an object literal whose first two keys are
 * symbols (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 gives
 * such a literal its shape (hidden class) step by step, one transition per key, and a full garbage
 * collection that finds no tick object alive collects those transitions. The next tick object is
 * then built through new ones, and the define sites in `nextTick` see one more shape each time. A
 * few collections later they are megamorphic for good: every tick object is then built through the
 * runtime, several hundred nanoseconds each, where optimised code builds it in a few. A request
 * schedules about six ticks (stream ends, writes, finishes), and on Node.js 20, 24 and 26 alike a
 * service that has collected its heap a few times spent a quarter of a cached answer's
 * instructions there (38,000 of 140,000–152,000, counted with callgrind). Node.js 26.12 builds
 * tick objects with a class (`new TickObject(…)`), whose shape no collection loses: there the one
 * object kept alive changes nothing.
 *
 * One tick object kept alive keeps its shape, and with it every transition that leads there, so
 * the define sites stay monomorphic. `executionAsyncResource()` inside a tick callback is the tick
 * object itself. test/speed/next-tick-shape.test.ts reads the define sites' state in the server process.
 */
import { executionAsyncResource } from 'node:async_hooks'

/** Holds the one tick object for as long as the process runs. */
const kept: object[] = []

process.nextTick(() => {
  kept.push(executionAsyncResource())
})
