import { useNavigation } from "react-router";

/** A thin bar at the top while a navigation or submission takes more than a moment (JavaScript only). */
export function NavigationProgress() {
  const busy = useNavigation().state !== "idle";
  return (
    <div
      role="progressbar"
      aria-hidden={!busy}
      aria-label="Loading"
      className="progress"
    />
  );
}
