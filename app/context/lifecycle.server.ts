/** Where the process is in its life: /readyz answers 200 only while `ready`. */
export type LifecycleState = "starting" | "ready" | "draining";

export type Lifecycle = { state: LifecycleState };

export function createLifecycle(): Lifecycle {
  return { state: "starting" };
}
