/** dynalite ships no types; this declares the part of its API the local engine uses. */
declare module 'dynalite' {
  import type { Server } from 'node:http';

  export interface DynaliteOptions {
    /** LevelDB directory; in memory when absent. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }

  /** An http.Server speaking the DynamoDB API; closing it also closes the database. */
  export default function dynalite(options?: DynaliteOptions): Server;
}
