// Tidy CSV as R (read.csv, readr), JASP and pandas read it as it is: RFC 4180 (comma, CRLF, a field
// quoted when it holds a comma, quote or line break, quotes doubled), a header row, UTF-8 without a
// byte-order mark, no index column, NA for a missing value, TRUE/FALSE for yes and no.

export type Cell = string | number | boolean | null | undefined;

const field = (v: Cell): string => {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return 'NA';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return String(Math.round(v * 1e6) / 1e6);
  // A text that reads as missing would become missing: quoted, it stays the text "NA" in R and pandas... only
  // partly, so such texts are rare enough to leave; any text with a separator, quote or break is quoted.
  return /[",\r\n]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v;
};

/** The table as CSV text: `columns` in order, each row's value by column name. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, Cell>[]): string {
  const lines = [columns.map((c) => field(c)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A column name that every tool keeps as it is: letters, digits and underscores, starting with a letter. */
export const columnName = (s: string): string => {
  const n = s.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z]/.test(n) ? n : `x${n}`;
};
