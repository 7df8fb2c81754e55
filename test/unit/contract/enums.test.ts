import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ContractTerm,
  type ContractType,
  checklistStatuses,
  contractTerm,
  contractTerms,
  contractType,
  contractTypes,
  includedContractTerms,
  type PaymentOption,
  paymentOptions,
  planStatuses,
  purchasePlanProviders,
  type UsageType,
} from '../../../shared/contract/enums';
import { englishNumberWords } from '../../../shared/contract/number-words';
import type {
  PaymentOption as EnginePaymentOption,
  UsageType as EngineUsageType,
  OfferContractType,
  OfferTerm,
} from '../../../shared/domain/engine/shapes/model';
import { usageTypes } from '../../../shared/domain/engine/shapes/model';

describe('number words', () => {
  it('spells numbers the way the contract-term names do', () => {
    // Act
    const words = [2, 11, 13, 19, 20, 21, 34, 40].map(englishNumberWords);

    // Assess
    expect(words).toEqual([
      'two',
      'eleven',
      'thirteen',
      'nineteen',
      'twenty',
      'twenty_one',
      'thirty_four',
      'forty',
    ]);
  });

  it('refuses numbers it cannot spell', () => {
    // Assess
    expect(() => englishNumberWords(100)).toThrow(RangeError);
    expect(() => englishNumberWords(2.5)).toThrow(RangeError);
  });
});

describe('contract terms', () => {
  it('lists the named terms and the month terms for 2-11, 13-23 and 25-34 months', () => {
    // Assess
    expect(contractTerms).toHaveLength(10 + 10 + 11 + 10);
    expect(contractTerms.slice(0, 10)).toEqual([
      'one_year_gris',
      'thirty_day_gris',
      'three_month_gris',
      'six_month_gris',
      'one_year',
      'two_year',
      'three_year',
      'five_year',
      'zero_day',
      'thirty_day',
    ]);
    expect(contractTerms).toEqual(
      expect.arrayContaining([
        'two_month',
        'eleven_month',
        'thirteen_month',
        'twenty_one_month',
        'twenty_five_month',
        'thirty_four_month',
      ]),
    );
  });

  it('has no month term for whole years or outside the ranges', () => {
    // Assess
    for (const absent of [
      'twelve_month',
      'twenty_four_month',
      'one_month',
      'thirty_five_month',
      'twenty-one_month',
    ]) {
      expect(contractTerms).not.toContain(absent);
      expect(contractTerm.safeParse(absent).success).toBe(false);
    }
  });

  it('names each term once', () => {
    // Assess
    expect(new Set(contractTerms).size).toBe(contractTerms.length);
  });

  it('covers every term the catalog offers', () => {
    // Assess
    expectTypeOf<OfferTerm>().toExtend<ContractTerm>();
    expect(contractTerm.safeParse('thirty_day_gris').success).toBe(true);
  });
});

describe('contract types', () => {
  it('lists the fixed group, then each leasable type as written and with leased_', () => {
    // Assess
    expect(contractTypes).toHaveLength(13 + 35 * 2);
    expect(contractTypes.slice(0, 13)).toEqual([
      'leased_db_ris',
      'db_ris',
      'leased_ris',
      'standard_ris',
      'compute_plans',
      'instance_plans',
      'convertible_ris',
      'ris',
      'sagemaker_plans',
      'leased_compute_plans',
      'leased_sagemaker_plans',
      'dynamodb',
      'leased_dynamodb',
    ]);
    expect(contractTypes).toEqual(
      expect.arrayContaining([
        'apache_cassandra',
        'leased_apache_cassandra',
        'specialized_compute_sap_hana',
        'leased_specialized_compute_sap_hana',
        'vm',
        'leased_vm',
        'avs',
        'leased_avs',
      ]),
    );
    expect(new Set(contractTypes).size).toBe(contractTypes.length);
  });

  it('does not prefix the fixed group', () => {
    // Assess
    expect(contractType.safeParse('leased_leased_ris').success).toBe(false);
    expect(contractType.safeParse('leased_standard_ris').success).toBe(false);
  });

  it('covers every contract type the catalog offers', () => {
    // Assess
    expectTypeOf<OfferContractType>().toExtend<ContractType>();
  });
});

describe('other enumerations', () => {
  it('lists them exactly as the spec does', () => {
    // Assess
    expect(planStatuses).toEqual([
      'new',
      'reviewed',
      'scheduled',
      'completed',
      'draft',
      'needs_review',
      'in_progress',
    ]);
    expect(checklistStatuses).toEqual(['available', 'warning', 'missing', 'unknown']);
    expect(paymentOptions).toEqual(['No Upfront', 'Partial Upfront', 'All Upfront']);
    expect(includedContractTerms).toEqual(['one_year', 'three_year', 'one_year_gris', 'thirty_day_gris']);
    expect(purchasePlanProviders).toEqual(['aws', 'azure', 'gcp', 'kubernetes', 'unknown']);
    expect(usageTypes).toHaveLength(13);
    expect(usageTypes).toEqual(
      expect.arrayContaining(['running', 'provisioned_duration_gb_seconds', 'unknown']),
    );
  });

  it("agree with the plan engine's types", () => {
    // Assess
    expectTypeOf<UsageType>().toEqualTypeOf<EngineUsageType>();
    expectTypeOf<PaymentOption>().toEqualTypeOf<EnginePaymentOption>();
  });
});
