import { z } from "zod";

/**
 * The files of a form (`file`, repeated). A file input left empty still sends a part, with no name
 * and no bytes: it is no file.
 */
export const uploadedFilesField = z.preprocess(
  (value) => [value ?? []].flat().filter((file) => !(file instanceof File && file.name === "" && file.size === 0)),
  z.array(z.instanceof(File, { message: "Choose files to attach." })),
);
