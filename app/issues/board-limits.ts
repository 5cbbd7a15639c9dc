/** Cards a board column shows at first; "Show N more" adds as many again (docs/product.md, Limits). */
export const boardPageSize = 50;
/** The most cards one column shows, however far "Show N more" goes: past it, the list has the rest. */
export const boardColumnCap = 500;
