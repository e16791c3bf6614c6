/**
 * Splunk HTTP Event Collector status codes (Splunk's "Troubleshoot HTTP Event Collector" table; the
 * subset GreptimeDB answers with, reference §6.15) and the error that carries one.
 */
import { PetrelError, StatusCode } from "../../common/errors.ts";

/** HEC `code` values of the answers Petrel gives. */
export const HecCode = {
  Success: 0,
  TokenRequired: 2,
  InvalidAuthorization: 3,
  InvalidToken: 4,
  NoData: 5,
  InvalidDataFormat: 6,
  IncorrectIndex: 7,
  InternalError: 8,
  ServerBusy: 9,
  InvalidChannel: 11,
  EventRequired: 12,
  EventBlank: 13,
  IndexedFields: 15,
  Healthy: 17,
} as const;

/** A bad HEC request: a 400 with its HEC code and, for one event's fault, the event's position. */
export class HecError extends PetrelError {
  constructor(
    readonly hecCode: number,
    message: string,
    /** 0-based position of the offending event (Splunk's `invalid-event-number`). */
    readonly eventNumber?: number,
  ) {
    super(StatusCode.InvalidArguments, message);
    this.name = "HecError";
  }
}
