import { Fragment } from "react";

/**
 * A route or a path ("/w/:workspace/p/:key/issues/:number") that may break after a slash and
 * nowhere else, so that a narrow column never cuts a name in two.
 */
export function RoutePath({ path }: { path: string }) {
  return path.split(/(?<=\/)/).map((part, index) => (
    <Fragment key={index}>
      {index ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}
