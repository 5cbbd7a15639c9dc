import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { readRenderErrorDigest, RenderErrorDigestContext } from "~/errors/render-error-digest";
import { startReporting } from "~/monitoring/reporting-starter.client";

// Browser errors and web vitals to POST /monitoring (docs/product.md, Monitoring); first, so that errors while hydrating count.
startReporting();

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
