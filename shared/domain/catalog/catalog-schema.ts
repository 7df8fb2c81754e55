import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { cloudProviders } from '../cloud-providers';
import { PROVIDER_TERM_HOURS } from './catalog-terms';
import { sizeInstance } from './instance-units';

/**
 * Schemas of the catalog's data files (`./data/*.json`). Every file is validated when the catalog
 * is packed (`npm run catalog:pack`) and by the unit tests (catalog-validation.ts), so a malformed
 * entry fails loudly with the path of the offending field instead of producing wrong offers; the
 * functions ship the packed data validated and do not carry these schemas. Cross-references inside a file (sources, instance types, families) are
 * checked here too; references between files are checked by the loader.
 */

// zod's English messages name what is wrong with a data file; `zod/mini` loads no locale itself.
z.config(en());

const text = z.string().check(z.minLength(1));
const price = z.number().check(z.positive());
const discount = z.number().check(z.gt(0), z.lt(1));

const providerSchema = z.enum(cloudProviders);
const paymentOptionSchema = z.enum(['No Upfront', 'Partial Upfront', 'All Upfront']);
const providerTermSchema = z.enum(['one_year', 'three_year']);
const reservationContractTypeSchema = z.enum(['standard_ris', 'convertible_ris', 'db_ris', 'vm']);
const spendContractTypeSchema = z.enum(['compute_plans', 'instance_plans']);
const leasedContractTypeSchema = z.enum(['leased_ris', 'leased_compute_plans', 'leased_vm']);
const guaranteedTermSchema = z.enum(['thirty_day_gris', 'one_year_gris']);

/** Where a figure comes from; `illustrative` when no verified public snapshot backs it. */
const sourceSchema = z.strictObject({ illustrative: z.boolean(), description: text });
const sourcesSchema = z.record(text, sourceSchema);

function byTermAndPayment<T extends z.ZodMiniType>(value: T) {
  const byPayment = z
    .partialRecord(paymentOptionSchema, value)
    .check(z.refine((entries) => Object.keys(entries).length > 0, 'name at least one payment option'));
  return z
    .partialRecord(providerTermSchema, byPayment)
    .check(z.refine((entries) => Object.keys(entries).length > 0, 'name at least one term'));
}

const reservedScopeSchema = z.discriminatedUnion('kind', [
  /** Size-flexible: one offer per family, priced per normalized unit. */
  z.strictObject({ kind: z.literal('family') }),
  /** Exact: one offer per instance type (all of the family's when `instanceTypes` is absent). */
  z.strictObject({
    kind: z.literal('instance'),
    instanceTypes: z.optional(z.array(text).check(z.minLength(1))),
  }),
]);

/**
 * Prices of one family in one region, OS and tenancy, per instance-hour of the family's
 * `priceReference` type; other sizes scale linearly with their units.
 * `reserved` holds EFFECTIVE hourly rates (upfront amortized over the term plus recurring).
 */
const familyPricesSchema = z
  .strictObject({
    region: text,
    operatingSystem: text,
    tenancy: text,
    source: text,
    ondemand: price,
    reserved: z.optional(z.partialRecord(reservationContractTypeSchema, byTermAndPayment(price))),
    reservedScope: z.optional(reservedScopeSchema),
  })
  .check(
    z.refine((prices) => (prices.reserved === undefined) === (prices.reservedScope === undefined), {
      message: 'reserved and reservedScope are given together',
      path: ['reservedScope'],
    }),
  );

const familySchema = z.strictObject({
  family: text,
  priceReference: text,
  instanceTypes: z.array(text).check(z.minLength(1)),
  prices: z.array(familyPricesSchema).check(z.minLength(1)),
});

const productSchema = z.strictObject({ name: text, offeringClass: z.string() });

/** A provider's on-demand prices and reservations (EC2, RDS, Azure VMs, Compute Engine). */
export const reservationFileSchema = z
  .strictObject({
    provider: providerSchema,
    service: text,
    sources: sourcesSchema,
    productDescriptions: z.record(text, text),
    products: z.partialRecord(reservationContractTypeSchema, productSchema),
    families: z.array(familySchema).check(z.minLength(1)),
  })
  .check(
    z.superRefine((file, ctx) => {
      const seenTypes = new Set<string>();
      file.families.forEach((family, f) => {
        const at = (...path: (string | number)[]) => ['families', f, ...path];
        family.instanceTypes.forEach((instanceType, i) => {
          const sized = sizeInstance(file.provider, instanceType);
          if (sized?.family !== family.family) {
            ctx.addIssue({
              code: 'custom',
              message: `${instanceType} is not a ${file.provider} instance type of family ${family.family}`,
              path: at('instanceTypes', i),
            });
          }
          if (seenTypes.has(instanceType)) {
            ctx.addIssue({
              code: 'custom',
              message: `${instanceType} is listed twice`,
              path: at('instanceTypes', i),
            });
          }
          seenTypes.add(instanceType);
        });
        if (!family.instanceTypes.includes(family.priceReference)) {
          ctx.addIssue({
            code: 'custom',
            message: 'priceReference is one of instanceTypes',
            path: at('priceReference'),
          });
        }
        const seenPrices = new Set<string>();
        family.prices.forEach((prices, p) => {
          const key = `${prices.region}|${prices.operatingSystem}|${prices.tenancy}`;
          if (seenPrices.has(key)) {
            ctx.addIssue({ code: 'custom', message: `${key} is priced twice`, path: at('prices', p) });
          }
          seenPrices.add(key);
          if (!(prices.source in file.sources)) {
            ctx.addIssue({
              code: 'custom',
              message: `unknown source ${prices.source}`,
              path: at('prices', p, 'source'),
            });
          }
          if (!(prices.operatingSystem in file.productDescriptions)) {
            ctx.addIssue({
              code: 'custom',
              message: `no product description for ${prices.operatingSystem}`,
              path: at('prices', p, 'operatingSystem'),
            });
          }
          for (const contractType of Object.keys(prices.reserved ?? {})) {
            if (!(contractType in file.products)) {
              ctx.addIssue({
                code: 'custom',
                message: `no product named for ${contractType}`,
                path: at('prices', p, 'reserved', contractType),
              });
            }
          }
          const scoped =
            prices.reservedScope?.kind === 'instance' ? (prices.reservedScope.instanceTypes ?? []) : [];
          scoped.forEach((instanceType, i) => {
            if (!family.instanceTypes.includes(instanceType)) {
              ctx.addIssue({
                code: 'custom',
                message: `${instanceType} is not one of the family's instanceTypes`,
                path: at('prices', p, 'reservedScope', 'instanceTypes', i),
              });
            }
          });
        });
      });
    }),
  );

/** Savings-plan discounts: one row per plan type, region, family, OS and tenancy. */
export const savingsPlanFileSchema = z
  .strictObject({
    provider: providerSchema,
    sources: sourcesSchema,
    plans: z
      .array(
        z.strictObject({
          planType: text,
          contractType: spendContractTypeSchema,
          displayName: text,
          /** True when one plan is bought per region and family (EC2 Instance Savings Plans). */
          perRegionFamily: z.boolean(),
        }),
      )
      .check(z.minLength(1)),
    rates: z
      .array(
        z.strictObject({
          planType: text,
          region: text,
          family: text,
          operatingSystem: text,
          tenancy: text,
          source: text,
          discounts: byTermAndPayment(discount),
        }),
      )
      .check(z.minLength(1)),
  })
  .check(
    z.superRefine((file, ctx) => {
      const planTypes = new Set(file.plans.map((plan) => plan.planType));
      if (planTypes.size !== file.plans.length) {
        ctx.addIssue({ code: 'custom', message: 'a plan type is listed twice', path: ['plans'] });
      }
      const seenRows = new Set<string>();
      file.rates.forEach((row, r) => {
        if (!planTypes.has(row.planType)) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown plan type ${row.planType}`,
            path: ['rates', r, 'planType'],
          });
        }
        if (!(row.source in file.sources)) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown source ${row.source}`,
            path: ['rates', r, 'source'],
          });
        }
        const key = [row.planType, row.region, row.family, row.operatingSystem, row.tenancy].join('|');
        if (seenRows.has(key))
          ctx.addIssue({ code: 'custom', message: `${key} is listed twice`, path: ['rates', r] });
        seenRows.add(key);
      });
    }),
  );

/** The service's guaranteed (leased) offers: lock-in terms with their fees, and what they lease. */
export const guaranteedOfferFileSchema = z
  .strictObject({
    sources: sourcesSchema,
    terms: z
      .array(
        z.strictObject({
          term: guaranteedTermSchema,
          label: text,
          lockinHours: z.number().check(z.int(), z.positive()),
          feeRate: z.number().check(z.gte(0), z.lt(1)),
          source: text,
        }),
      )
      .check(z.minLength(1)),
    leases: z
      .array(
        z.strictObject({
          provider: providerSchema,
          contractType: z.union([reservationContractTypeSchema, spendContractTypeSchema]),
          term: providerTermSchema,
          paymentOption: paymentOptionSchema,
          leasedContractType: leasedContractTypeSchema,
        }),
      )
      .check(z.minLength(1)),
  })
  .check(
    z.superRefine((file, ctx) => {
      const shortestLeasedTerm = Math.min(...file.leases.map((lease) => PROVIDER_TERM_HOURS[lease.term]));
      const seenTerms = new Set<string>();
      file.terms.forEach((term, t) => {
        if (seenTerms.has(term.term)) {
          ctx.addIssue({
            code: 'custom',
            message: `${term.term} is listed twice`,
            path: ['terms', t, 'term'],
          });
        }
        seenTerms.add(term.term);
        if (!(term.source in file.sources)) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown source ${term.source}`,
            path: ['terms', t, 'source'],
          });
        }
        if (term.lockinHours >= shortestLeasedTerm) {
          ctx.addIssue({
            code: 'custom',
            message: 'lockinHours is shorter than every leased term',
            path: ['terms', t, 'lockinHours'],
          });
        }
      });
    }),
  );

export type ReservationFile = z.infer<typeof reservationFileSchema>;
export type SavingsPlanFile = z.infer<typeof savingsPlanFileSchema>;
export type GuaranteedOfferFile = z.infer<typeof guaranteedOfferFileSchema>;
