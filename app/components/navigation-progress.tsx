import { useNavigation } from "react-router";

/** A thin bar at the top while a navigation or submission takes more than a moment (JavaScript only). */
export function NavigationProgress() {
  const busy = useNavigation().state !== "idle";
  return (
    <div
      role="progressbar"
      aria-hidden={!busy}
      aria-label="Loading"
      className={`fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-indigo-500 transition-transform delay-150 duration-700 ${busy ? "scale-x-75" : "scale-x-0 opacity-0 delay-0 duration-0"}`}
    />
  );
}
