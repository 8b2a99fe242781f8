/**
 * The layout the shipped binary tables share (word-clusters-file.ts, neighbour-index-file.ts): a JSON header line
 * padded with spaces to a multiple of four bytes, so the little-endian typed arrays after it start aligned.
 */

/** The header as its padded line. */
export function headerLine(header: object): string {
  const line = `${JSON.stringify(header)}\n`;
  return line.padEnd(line.length + ((4 - (line.length % 4)) % 4), ' ');
}

/**
 * The header of `file`, where its arrays start, and bytes whose offset suits typed-array views: a large file read has
 * its own ArrayBuffer (the views then share its bytes); bytes that sit unaligned in a larger buffer get an aligned copy.
 */
export function readHeaderLine<Header>(file: Uint8Array, name: string): { header: Header; offset: number; bytes: Uint8Array } {
  const newline = file.indexOf(0x0a);
  if (newline < 0) throw new Error(`${name}: no header line`);
  const header = JSON.parse(Buffer.from(file.buffer, file.byteOffset, newline).toString('latin1')) as Header;
  let offset = newline + 1;
  while (offset % 4 !== 0) offset += 1;
  const bytes = file.byteOffset % 4 === 0 ? file : Uint8Array.from(file);
  return { header, offset, bytes };
}
