import { index, prefix, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/index.tsx"),
  route("signup", "routes/signup.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.ts"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password/:token", "routes/reset-password.$token.tsx"),
  route("invitations/:token", "routes/invitations.$token.tsx"),
  route("settings", "routes/settings/layout.tsx", [
    index("routes/settings/index.tsx"),
    route("notifications", "routes/settings/notifications.tsx"),
    route("password", "routes/settings/password.tsx"),
    route("sessions", "routes/settings/sessions.tsx"),
    route("tokens", "routes/settings/tokens.tsx"),
  ]),
  route("w/new", "routes/w/new.tsx"),
  route("w/:workspace", "routes/w/$workspace/layout.tsx", [
    index("routes/w/$workspace/index.tsx"),
    route("inbox", "routes/w/$workspace/inbox.tsx"),
    route("search", "routes/w/$workspace/search.tsx"),
    route("attachments", "routes/w/$workspace/attachments/index.ts"),
    route("attachments/:id/:filename", "routes/w/$workspace/attachments/$id.$filename.ts"),
    route("projects/new", "routes/w/$workspace/projects/new.tsx"),
    route("p/:key", "routes/w/$workspace/p/$key/layout.tsx", [
      index("routes/w/$workspace/p/$key/index.tsx"),
      route("issues", "routes/w/$workspace/p/$key/issues/layout.tsx", [
        index("routes/w/$workspace/p/$key/issues/index.tsx"),
        route(":number", "routes/w/$workspace/p/$key/issues/$number.tsx"),
      ]),
      route("issues/new", "routes/w/$workspace/p/$key/issues/new.tsx"),
      route("issues.csv", "routes/w/$workspace/p/$key/issues[.]csv.ts"),
      route("board", "routes/w/$workspace/p/$key/board.tsx"),
      route("settings", "routes/w/$workspace/p/$key/settings.tsx"),
      route("views/:id", "routes/w/$workspace/p/$key/views/$id.tsx"),
    ]),
    route("settings", "routes/w/$workspace/settings/layout.tsx", [
      index("routes/w/$workspace/settings/index.tsx"),
      route("members", "routes/w/$workspace/settings/members.tsx"),
      route("labels", "routes/w/$workspace/settings/labels.tsx"),
      route("webhooks", "routes/w/$workspace/settings/webhooks.tsx"),
    ]),
  ]),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/index.ts"),
    route("users", "routes/admin/users.tsx"),
    route("monitoring", "routes/admin/monitoring/index.tsx"),
    route("monitoring/:digest", "routes/admin/monitoring/$digest.tsx"),
  ]),
  // The API (bearer tokens, JSON) and its reference.
  route("api", "routes/api/index.tsx"),
  ...prefix("api/v1", [
    route("openapi.json", "routes/api/v1/openapi[.]json.ts"),
    route("user", "routes/api/v1/user.ts"),
    route("workspaces", "routes/api/v1/workspaces/index.ts"),
    route("workspaces/:workspace/projects", "routes/api/v1/workspaces/$workspace/projects.ts"),
    route("workspaces/:workspace/labels", "routes/api/v1/workspaces/$workspace/labels.ts"),
    route("workspaces/:workspace/members", "routes/api/v1/workspaces/$workspace/members.ts"),
    route("workspaces/:workspace/projects/:key/issues", "routes/api/v1/workspaces/$workspace/projects/$key/issues/index.ts"),
    route("workspaces/:workspace/projects/:key/issues/:number", "routes/api/v1/workspaces/$workspace/projects/$key/issues/$number/index.ts"),
    route("workspaces/:workspace/projects/:key/issues/:number/comments", "routes/api/v1/workspaces/$workspace/projects/$key/issues/$number/comments.ts"),
    route("*", "routes/api/v1/not-found.ts"),
  ]),
  // `/api/v1` itself names no resource either: the same JSON 404 (a splat needs something after the slash).
  route("api/v1", "routes/api/v1/not-found.ts", { id: "routes/api/v1/root" }),
  // GET /healthz is answered by the host (app/host/app.server.ts), before any of these.
  route("readyz", "routes/readyz.ts"),
  route("monitoring", "routes/monitoring.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
