/** What the checkpointer tells its worker. */
export type CheckpointMessage =
  | { kind: "poke"; path: string }
  | { kind: "forget"; path: string }
  | { kind: "stop"; done: Int32Array };
