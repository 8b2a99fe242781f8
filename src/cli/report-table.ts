import { createColors } from 'picocolors';
import { terminalSafe } from './terminal-safe.js';

export interface Column<Row> {
  header: string;
  /** Numbers and money align right. */
  align?: 'left' | 'right';
  cell: (row: Row) => string;
}

export interface TableStyle {
  color: boolean;
}

/** Colours only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function tableStyle(stream: { isTTY?: boolean }, environment: NodeJS.ProcessEnv): TableStyle {
  return { color: stream.isTTY === true && !environment.NO_COLOR && environment.TERM !== 'dumb' };
}

/**
 * An aligned table in the style of ccusage: a header, a rule, the rows, and an optional totals row under a
 * second rule. Widths are measured on the plain text, colours added afterwards, so alignment survives them.
 */
export function renderTable<Row>(columns: Column<Row>[], rows: Row[], totals: Row | undefined, style: TableStyle): string {
  const colors = createColors(style.color);
  // Cells hold client-controlled text (session ids, models): escaped before widths are measured.
  const body = rows.map((row) => columns.map((column) => terminalSafe(column.cell(row))));
  const totalCells = totals === undefined ? undefined : columns.map((column) => terminalSafe(column.cell(totals)));
  const widths = columns.map((column, index) =>
    Math.max(
      column.header.length,
      ...body.map((cells) => (cells[index] ?? '').length),
      (totalCells?.[index] ?? '').length,
    ),
  );
  const line = (cells: string[], paint: (text: string) => string): string =>
    cells
      .map((cell, index) => {
        const width = widths[index] ?? 0;
        const padded = columns[index]?.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
        return paint(padded);
      })
      .join('  ')
      .trimEnd();
  const rule = colors.dim(widths.map((width) => '─'.repeat(width)).join('  '));
  const output = [line(columns.map((column) => column.header), (text) => colors.bold(colors.cyan(text))), rule];
  for (const cells of body) output.push(line(cells, (text) => text));
  if (totalCells !== undefined) {
    output.push(rule, line(totalCells, (text) => colors.bold(colors.yellow(text))));
  }
  return `${output.join('\n')}\n`;
}
