/** The time and the ids every use case is given. */

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new random (version 4) UUID. */
  uuid(): string;
}
