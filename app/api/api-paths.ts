/** Where the JSON API lives: its requests are answered in JSON, never with a page or a cookie. */
export const apiBasePath = "/api/v1";

export const isApiPath = (pathname: string) => pathname === apiBasePath || pathname.startsWith(`${apiBasePath}/`);

export const isApiRequest = (request: Request) => isApiPath(new URL(request.url).pathname);
