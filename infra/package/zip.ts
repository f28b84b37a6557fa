// Lists the entries of a zip file from its central directory (names, sizes), enough to check
// what a function package holds without unpacking it. Zip64 archives are refused (a Lambda
// package that large is wrong anyway).
import { readFile } from 'node:fs/promises';

export interface ZipEntry {
  readonly name: string;
  readonly compressedSize: number;
  readonly size: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;

/** @throws Error when the file is not a zip (no end-of-central-directory record) or is Zip64. */
export function zipEntries(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file: no end-of-central-directory record');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new Error('Zip64 archives are not supported');
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw new Error(`corrupt central directory at entry ${n}`);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    entries.push({ name: zip.toString('utf8', offset + 46, offset + 46 + nameLength), compressedSize, size });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export async function readZipEntries(file: string): Promise<ZipEntry[]> {
  return zipEntries(await readFile(file));
}
