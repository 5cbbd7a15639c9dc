import { useForm } from "@conform-to/react";
import { useEffect, useRef } from "react";

type Options<Schema extends Record<string, unknown>> = Parameters<typeof useForm<Schema>>[0];

/**
 * Conform's useForm for a route's form. After a successful save the action redirects and its
 * result disappears; without JavaScript the page comes back fresh, so with JavaScript the form is
 * reset too, instead of still showing the errors of an earlier attempt.
 */
export function useRouteForm<Schema extends Record<string, unknown>>(options: Options<Schema>) {
  const [form, fields] = useForm<Schema>(options);
  const hadResult = useRef(false);
  const { lastResult } = options;
  useEffect(() => {
    if (lastResult) {
      hadResult.current = true;
    } else if (hadResult.current) {
      hadResult.current = false;
      form.reset();
    }
  }, [lastResult, form]);
  return [form, fields] as const;
}
