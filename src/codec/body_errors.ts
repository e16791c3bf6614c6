/** The two ways decoding a compressed body fails, worded the same for every codec and endpoint. */
import { invalidArguments, type PetrelError, tooLarge } from "../common/errors.ts";

/** The decoded body would exceed `limit` bytes (413). */
export function inflatedTooLarge(codec: string, limit: number, detail?: string): PetrelError {
  const why = detail ? ` (${detail})` : "";
  return tooLarge(
    `Request body too large: length limit exceeded decoding ${codec} (body_limit is ${limit} bytes)${why}`,
  );
}

/** The body is not valid in its codec (400). */
export function corruptBody(codec: string, detail: string): PetrelError {
  return invalidArguments(`Failed to decompress ${codec} request body: ${detail}`);
}
