import { createColors } from 'picocolors';

export interface Column<Row> {
  header: string;
  /** Numbers and money align right. */
  align?: 'left' | 'right';
  cell: (row: Row) => string;
  /**
   * Dropped when the table is wider than the terminal: the highest number goes first. Columns without it are
   * always shown (the key, tokens, cost), as ccusage's compact layout keeps date, tokens and cost.
   */
  dropOrder?: number;
  /** Free text (names, lists) that may be clipped with `…` when dropping columns was not enough. */
  shrink?: boolean;
}

export interface TableStyle {
  color: boolean;
  /** The terminal's width in characters; undefined when not known (a pipe): the table is never narrowed then. */
  width?: number;
}

/**
 * Colours only for a terminal, and never when NO_COLOR is set (https://no-color.org). The width is the
 * terminal's, or `COLUMNS` when set; a pipe without `COLUMNS` gets every column.
 */
export function tableStyle(stream: { isTTY?: boolean; columns?: number }, environment: NodeJS.ProcessEnv): TableStyle {
  const fromEnvironment = Number(environment.COLUMNS);
  const width = stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : Number.isInteger(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : undefined;
  return { color: stream.isTTY === true && !environment.NO_COLOR && environment.TERM !== 'dumb', ...(width === undefined ? {} : { width }) };
}

const gap = 2;
const narrowestCell = 8;

function totalWidth(widths: readonly number[]): number {
  return widths.reduce((sum, width) => sum + width, 0) + gap * Math.max(0, widths.length - 1);
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * An aligned table in the style of ccusage: a header, a rule, the rows, and an optional totals row under a
 * second rule. Widths are measured on the plain text, colours added afterwards, so alignment survives them.
 * Wider than the terminal, it drops columns by `dropOrder`, then clips the widest text columns with `…`, and
 * says so under the table (`--json` has everything).
 */
export function renderTable<Row>(allColumns: Column<Row>[], rows: Row[], totals: Row | undefined, style: TableStyle): string {
  const colors = createColors(style.color);
  const measure = (columns: Column<Row>[]) => {
    const body = rows.map((row) => columns.map((column) => column.cell(row)));
    const totalCells = totals === undefined ? undefined : columns.map((column) => column.cell(totals));
    const widths = columns.map((column, index) =>
      Math.max(column.header.length, ...body.map((cells) => (cells[index] ?? '').length), (totalCells?.[index] ?? '').length),
    );
    return { body, totalCells, widths };
  };
  let columns = allColumns;
  let measured = measure(columns);
  let compact = false;
  if (style.width !== undefined) {
    const droppable = allColumns.filter((column) => column.dropOrder !== undefined).sort((left, right) => (right.dropOrder ?? 0) - (left.dropOrder ?? 0));
    for (const column of droppable) {
      if (totalWidth(measured.widths) <= style.width) break;
      columns = columns.filter((kept) => kept !== column);
      measured = measure(columns);
      compact = true;
    }
    // Still too wide: clip free-text columns, the rightmost first (the key column on the left stays readable).
    const widths = [...measured.widths];
    for (let index = columns.length - 1; index >= 0 && totalWidth(widths) > style.width; index -= 1) {
      if (columns[index]?.shrink !== true) continue;
      const excess = totalWidth(widths) - style.width;
      const current = widths[index] ?? 0;
      const next = Math.max(narrowestCell, current - excess);
      if (next < current) {
        widths[index] = next;
        compact = true;
      }
    }
    measured = { ...measured, widths };
  }
  const { body, totalCells, widths } = measured;
  const line = (cells: string[], paint: (text: string) => string): string =>
    cells
      .map((cell, index) => {
        const width = widths[index] ?? 0;
        const text = clip(cell, width);
        const padded = columns[index]?.align === 'right' ? text.padStart(width) : text.padEnd(width);
        return paint(padded);
      })
      .join(' '.repeat(gap))
      .trimEnd();
  const rule = colors.dim(widths.map((width) => '─'.repeat(width)).join(' '.repeat(gap)));
  const output = [line(columns.map((column) => column.header), (text) => colors.bold(colors.cyan(text))), rule];
  for (const cells of body) output.push(line(cells, (text) => text));
  if (totalCells !== undefined) {
    output.push(rule, line(totalCells, (text) => colors.bold(colors.yellow(text))));
  }
  if (compact) {
    const hidden = allColumns.filter((column) => !columns.includes(column)).map((column) => column.header);
    output.push(colors.dim(`(fitted to ${style.width} columns${hidden.length > 0 ? `; not shown: ${hidden.join(', ')}` : ''}; a wider terminal or --json shows all)`));
  }
  return `${output.join('\n')}\n`;
}
