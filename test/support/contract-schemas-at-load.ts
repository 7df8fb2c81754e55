/**
 * Run in a fresh process (test/unit/contract/deferred-schemas.test.ts): imports the whole
 * operation list, then parses one request, and prints the kinds of zod schemas built in each
 * phase as JSON. zod calls `__zod_globalConfig.postProcessor` with every schema it builds (the hook
 * `zod/compile` uses), which is how they are counted.
 */
const built: string[] = [];
(globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig = {
  postProcessor: (schema: { _zod: { def: { type: string } } }) => built.push(schema._zod.def.type),
};

const { operations } = await import('../../shared/contract/operations');
const atLoad = built.splice(0);
operations.listPlanLineItems.query.safeParse({ page: '2' });
const onFirstParse = built.splice(0);
process.stdout.write(JSON.stringify({ atLoad, onFirstParse }));

export {};
