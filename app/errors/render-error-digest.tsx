import { createContext, useContext } from "react";
import { useLocation } from "react-router";

/**
 * The digest of an error thrown while the server rendered the document. Loader and action errors
 * carry their digest in the route error itself; a render error reaches the page only as React
 * Router's sanitised Error, so the server hands its digest over in a meta tag for hydration.
 */
export const RenderErrorDigestContext = createContext<string | undefined>(undefined);

export const renderErrorDigestMetaName = "cairn-error-digest";

/** Only the first page, rendered by the server, can have such a digest. */
export function useRenderErrorDigest(): string | undefined {
  const digest = useContext(RenderErrorDigestContext);
  return useLocation().key === "default" ? digest : undefined;
}

export function readRenderErrorDigest(document: Document): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${renderErrorDigestMetaName}"]`)?.content || undefined;
}
