/**
 * What the checkpointer tells its worker. `done` is set to 1 (and notified) once the worker has
 * closed the file(s) for good: the owner waits on it before deleting or reopening them.
 */
export type CheckpointMessage =
  | { kind: "poke"; path: string }
  | { kind: "forget"; path: string; done: Int32Array }
  | { kind: "stop"; done: Int32Array };
