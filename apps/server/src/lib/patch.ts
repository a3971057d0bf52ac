/** The columns of `Row` a value of type `V` may be written to. */
type ColumnFor<V, Row> = { [C in keyof Row]-?: Exclude<V, undefined> extends Row[C] ? C : never }[keyof Row];

/**
 * The columns of a patch's sent fields, each copied as it is to the column `columns` names
 * for it (an edit leaves the fields it does not send as they are). A field the map leaves out
 * is the caller's to write, if at all.
 */
export function sentColumns<Patch extends object, Row extends object>(
  patch: Patch,
  columns: { readonly [F in keyof Patch]?: ColumnFor<Patch[F], Row> },
): Partial<Row> {
  const values: Partial<Row> = {};
  for (const field of Object.keys(columns) as (keyof Patch & string)[]) {
    const value = patch[field];
    if (value !== undefined) Object.assign(values, { [columns[field] as string]: value });
  }
  return values;
}
