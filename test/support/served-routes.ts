import { existsSync } from 'node:fs';
import { functionEntry } from '../../lib/project-paths';
import type { FunctionGroup } from '../../shared/contract/operation-contract';
import { type Route, servedRoutes } from '../../shared/contract/operations';

/** The routes this checkout serves: those of every function group whose handler exists, as CDK deploys them. */
export const routes: readonly Route[] = servedRoutes((group) => existsSync(functionEntry(group)));

/** The function groups that have a handler, each once. */
export const servedGroups: readonly FunctionGroup[] = [...new Set(routes.map((route) => route.group))];
