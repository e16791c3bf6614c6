/**
 * Resolves on a later turn of the event loop, after pending I/O has run. Await it right before a
 * long synchronous SQLite write: responses of writes that just finished go out and bodies of newly
 * arrived requests are read (and handed to a parse worker) first, so that work overlaps the write
 * instead of queueing behind it. Worth ~8 % of line-protocol throughput with two concurrent writers.
 */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
