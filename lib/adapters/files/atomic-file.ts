// Crash-safe small files: written under a temporary name in the same folder, flushed to disk,
// renamed into place (atomic on POSIX file systems), then the folder is flushed so the rename
// itself survives a power loss. A reader never sees an empty or half-written file under the final
// name; it must skip temporary names (isTemporaryName).
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const TEMP_SUFFIX = '.tmp';

/** Names of files still being written (or left by a crash before their rename). */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') || name.endsWith(TEMP_SUFFIX);
}

/** Flushes a folder's entries (new names, renames) to disk. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some platforms and file systems (Windows, some network mounts) cannot fsync a folder.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR' && code !== 'EBADF') throw error;
  } finally {
    await handle.close();
  }
}

/** Writes the content to a temporary file beside `file` and flushes it; returns its name. */
async function writeTemporary(file: string, content: string): Promise<string> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID().slice(0, 8)}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** Creates the folder (and parents); flushes the parent of the first folder created. */
export async function ensureFolder(folder: string): Promise<void> {
  const first = await mkdir(folder, { recursive: true });
  if (first !== undefined) await syncFolder(path.dirname(first));
}

/**
 * Writes several files atomically: all contents flushed under temporary names first, then each
 * renamed into place, then each folder flushed once. Existing files of the same name are replaced.
 */
export async function writeFilesAtomically(
  files: ReadonlyArray<{ readonly path: string; readonly content: string }>,
): Promise<void> {
  const folders = new Set(files.map((f) => path.dirname(f.path)));
  for (const folder of folders) await ensureFolder(folder);
  const written: Array<{ temp: string; final: string }> = [];
  try {
    // Written and flushed side by side (libuv's thread pool overlaps the fsyncs).
    const temps = await Promise.allSettled(files.map((file) => writeTemporary(file.path, file.content)));
    temps.forEach((t, i) => t.status === 'fulfilled' && written.push({ temp: t.value, final: files[i]!.path }));
    const failed = temps.find((t) => t.status === 'rejected');
    if (failed) throw failed.reason;
    while (written.length > 0) {
      const { temp, final } = written[0]!;
      await rename(temp, final);
      written.shift();
    }
  } finally {
    // Only after a failure: temporary files that were not renamed.
    await Promise.all(written.map((w) => rm(w.temp, { force: true })));
  }
  for (const folder of folders) await syncFolder(folder);
}
