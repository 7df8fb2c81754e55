/**
 * The Marketplace port belongs to the use cases that buy (shared/app/ports/marketplace.ts); the
 * adapters beside this file implement it. Re-exported under its former path for the tests that
 * name it so.
 */
export * from '../../app/ports/marketplace';
