/**
 * Ports: what use cases need from the outside world, owned by the use cases and split by what
 * they serve. Adapters implement them (shared/store on DynamoDB, shared/cloud, shared/queue,
 * shared/mail; shared/runtime wires them). Writes are single-item conditional writes, so a
 * sequence interrupted half-way is completed by a retry; the one exception is an apply's last
 * write, one transaction (PlanRepository.scheduleApplication, docs/data-model.md).
 */
export * from './azure-tenants';
export * from './catalog';
export * from './clock-and-ids';
export * from './context';
export * from './idempotency';
export * from './marketplace';
export * from './oauth';
export * from './onboarding';
export * from './orgs-and-keys';
export * from './plans';
export * from './purchase-queue';
export * from './purchases';
export * from './request-throttle';
export * from './usage';
export * from './usage-sync';
