/**
 * A page's rows as columns, one array per field. A page's loader data is in its HTML twice (the
 * markup and the hydration payload), and the payload writes an object's field names with every
 * object: as columns, each name is written once per page, not once per row (~5 KB of a list's 50).
 */
export type Columns<Row> = { [Field in keyof Row]-?: Row[Field][] };

/** The rows as columns; the fields are those of the first row (every row has the same shape). */
export function toColumns<Row extends object>(rows: readonly Row[]): Columns<Row> {
  const fields = rows.length ? (Object.keys(rows[0]!) as (keyof Row)[]) : [];
  const columns = {} as Columns<Row>;
  for (const field of fields) columns[field] = rows.map((row) => row[field]);
  return columns;
}

/** The rows back from their columns. */
export function fromColumns<Row extends object>(columns: Columns<Row>): Row[] {
  const fields = Object.keys(columns) as (keyof Row)[];
  const length = fields.length ? columns[fields[0]!].length : 0;
  return Array.from({ length }, (_, i) => {
    const row = {} as Row;
    for (const field of fields) row[field] = columns[field][i] as Row[typeof field];
    return row;
  });
}
