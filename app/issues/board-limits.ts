/** Cards a board column shows at first; "Show N more" adds as many again (docs/product.md, Limits). */
export const boardPageSize = 50;
/** The most cards one column shows, however far "Show N more" goes: past it, the list has the rest. */
export const boardColumnCap = 200;
/**
 * The most cards one board shows in all: what one request may render (decision record 027). Six
 * columns of a first page each are half of it; past it, columns lead to the list as at their cap.
 */
export const boardCardCap = 600;
