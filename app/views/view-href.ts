/** Where a saved view opens: its project's list with its filters, and `view=<id>` so that the sidebar marks it. */
export function viewHref(workspaceSlug: string, projectKey: string, view: { id: number; query: string }) {
  return `/w/${workspaceSlug}/p/${projectKey}/issues?${view.query ? `${view.query}&` : ""}view=${view.id}`;
}
