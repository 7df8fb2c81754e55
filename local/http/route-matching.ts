import { MalformedRequestError } from '../../shared/domain/errors';

/** What matching needs of a route: its method and its path template. */
export interface RouteTemplate {
  readonly method: string;
  readonly path: string;
}

export type RouteMatch<Route extends RouteTemplate> =
  | { readonly kind: 'matched'; readonly route: Route; readonly pathParameters: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowedMethods: readonly string[] }
  | { readonly kind: 'not-found' };

/** A template segment: a literal, or the name of a `{param}`. */
type Segment = { readonly literal: string } | { readonly param: string };

interface Template<Route extends RouteTemplate> {
  readonly segments: readonly Segment[];
  readonly routes: readonly Route[];
}

/**
 * Matches a request path against the route templates as API Gateway does: a `{param}` segment
 * takes any one non-empty segment (percent-decoded), a literal segment beats a parameter where two
 * templates match the same path, and the method is looked up on the template that matched.
 */
export function createRouteMatcher<Route extends RouteTemplate>(
  routes: readonly Route[],
): (method: string, rawPath: string) => RouteMatch<Route> {
  const templates = templatesOf(routes);
  return (method, rawPath) => {
    const segments = decodeSegments(rawPath);
    let best: { template: Template<Route>; params: Record<string, string> } | undefined;
    for (const template of templates) {
      const params = matchSegments(template.segments, segments);
      if (
        params !== null &&
        (best === undefined || moreSpecific(template.segments, best.template.segments))
      ) {
        best = { template, params };
      }
    }
    if (best === undefined) {
      return { kind: 'not-found' };
    }
    const route = best.template.routes.find((candidate) => candidate.method === method.toUpperCase());
    if (route === undefined) {
      return {
        kind: 'method-not-allowed',
        allowedMethods: best.template.routes.map((candidate) => candidate.method).sort(),
      };
    }
    return { kind: 'matched', route, pathParameters: best.params };
  };
}

function templatesOf<Route extends RouteTemplate>(routes: readonly Route[]): Template<Route>[] {
  const byPath = new Map<string, Route[]>();
  for (const route of routes) {
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  }
  return [...byPath].map(([path, pathRoutes]) => ({
    segments: path
      .split('/')
      .slice(1)
      .map((segment): Segment => {
        const param = /^\{(.+)\}$/.exec(segment)?.[1];
        return param === undefined ? { literal: segment } : { param };
      }),
    routes: pathRoutes,
  }));
}

function decodeSegments(rawPath: string): string[] {
  try {
    return rawPath.split('/').slice(1).map(decodeURIComponent);
  } catch {
    throw new MalformedRequestError('The request path is not validly percent-encoded.');
  }
}

function matchSegments(
  template: readonly Segment[],
  segments: readonly string[],
): Record<string, string> | null {
  if (template.length !== segments.length) {
    return null;
  }
  const params = new Map<string, string>();
  for (const [index, part] of template.entries()) {
    const segment = segments[index] as string;
    if ('literal' in part ? segment !== part.literal : segment === '') {
      return null;
    }
    if ('param' in part) {
      params.set(part.param, segment);
    }
  }
  return Object.fromEntries(params);
}

/** Whether `a` is more specific than `b`: at the first segment where they differ in kind, `a` has the literal. */
function moreSpecific(a: readonly Segment[], b: readonly Segment[]): boolean {
  for (const [index, part] of a.entries()) {
    const other = b[index];
    if (other !== undefined && 'literal' in part !== 'literal' in other) {
      return 'literal' in part;
    }
  }
  return false;
}
