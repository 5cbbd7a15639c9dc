import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/index.tsx"),
  route("signup", "routes/signup.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.ts"),
  route("invitations/:token", "routes/invitations.$token.tsx"),
  route("settings", "routes/settings/layout.tsx", [
    index("routes/settings/index.tsx"),
    route("password", "routes/settings/password.tsx"),
    route("sessions", "routes/settings/sessions.tsx"),
  ]),
  route("w/new", "routes/w/new.tsx"),
  route("w/:workspace", "routes/w/$workspace/layout.tsx", [
    index("routes/w/$workspace/index.tsx"),
    route("settings", "routes/w/$workspace/settings/layout.tsx", [
      index("routes/w/$workspace/settings/index.tsx"),
      route("members", "routes/w/$workspace/settings/members.tsx"),
    ]),
  ]),
  route("healthz", "routes/healthz.ts"),
  route("readyz", "routes/readyz.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
