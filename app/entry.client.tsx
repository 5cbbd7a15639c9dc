import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { readRenderErrorDigest, RenderErrorDigestContext } from "~/errors/render-error-digest";

const renderErrorDigest = readRenderErrorDigest(document);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RenderErrorDigestContext value={renderErrorDigest}>
        <HydratedRouter />
      </RenderErrorDigestContext>
    </StrictMode>,
  );
});
