import { type FileHandle, open } from 'node:fs/promises';

/**
 * A file the operator named that cannot be read: one plain sentence naming the path once (exit
 * code 1, bin/admin.ts), not the system's message, which names it again.
 */
export class InputFileError extends Error {}

const reasons: Readonly<Record<string, string>> = {
  ENOENT: 'there is no such file',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a folder on its path is a file',
};

/** The error to report for `path`, whatever reading it threw. */
export function inputFileError(path: string, error: unknown): InputFileError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = (code && reasons[code]) ?? code ?? 'it cannot be read';
  return new InputFileError(`cannot read ${path}: ${reason}`);
}

/** The error to report for an output file that cannot be written. */
export function outputFileError(path: string, error: unknown): InputFileError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = (code && reasons[code]) ?? code ?? 'it cannot be written';
  return new InputFileError(`cannot write ${path}: ${reason}`);
}

/** Opens a file the operator named for reading, refusing a folder or a missing file in one sentence. */
export async function openInputFile(path: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path);
    // Opening a folder succeeds; reading it does not.
    if ((await handle.stat()).isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
    return handle;
  } catch (error) {
    await handle?.close();
    throw inputFileError(path, error);
  }
}
