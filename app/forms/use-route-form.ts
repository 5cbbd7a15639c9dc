import { useForm } from "@conform-to/react";
import { useEffect, useId, useRef, useState } from "react";
import { useNavigation } from "react-router";

type Options<Schema extends Record<string, unknown>> = Parameters<typeof useForm<Schema>>[0];

/**
 * Conform's useForm for a route's form. When the form's own save succeeds (its navigation ends
 * without a result: the action redirected) the form starts afresh from its latest default values,
 * as the page does without JavaScript, instead of keeping what was typed and the errors of an
 * earlier attempt. It starts afresh by taking a new Conform id, which resets the form in the
 * browser: Conform's `form.reset()` would submit a reset intent, and with validation on the server
 * only, that goes to the server (with every field, passwords too).
 */
export function useRouteForm<Schema extends Record<string, unknown>>(options: Options<Schema>) {
  const generatedId = useId();
  const [saves, setSaves] = useState(0);
  const submitted = useRef(false);
  const navigation = useNavigation();
  const id = options.id ?? generatedId;
  const [form, fields] = useForm<Schema>({
    ...options,
    id: saves ? `${id}-${saves}` : id,
    onSubmit: (event) => {
      // One held back (a file over the limit, an upload on its way: FileField, FileDropZone) was not
      // sent: the next navigation to end is not its save, and must not empty the form.
      if (!event.defaultPrevented) submitted.current = true;
    },
  });
  const { lastResult } = options;
  useEffect(() => {
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    if (!lastResult) setSaves((count) => count + 1);
  }, [navigation.state, lastResult]);
  return [form, fields] as const;
}
