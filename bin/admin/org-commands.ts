import {
  createOrg,
  createPartner,
  createUserKey,
  listOrgs,
  revokeKey,
  setCommitmentSharing,
  setRenewalHorizonDays,
} from '../../shared/app/operator';
import { setMaxUpfrontCost } from '../../shared/app/purchase-operations';
import { isApiKeyId, parseApiKey } from '../../shared/auth/api-keys';
import {
  type CommitmentSharing,
  commitmentSharings,
  isRenewalHorizonDays,
  MAX_RENEWAL_HORIZON_DAYS,
  type Provider,
} from '../../shared/domain/engine';
import { type MembershipRole, membershipRoles, type Organization } from '../../shared/domain/orgs';
import {
  type AdminCommand,
  type ArgumentSpec,
  type CommandInput,
  defineCommand,
  optional,
  required,
  UsageError,
} from './admin-command';

/** Orgs and API keys: the commands an operator starts a partner or a customer with. */

function orgJson(org: Organization) {
  return { org_id: org.id, name: org.name, is_partner: org.isPartner, partner_org_id: org.parentOrgId };
}

/**
 * The argument of the commands given a key id. A whole key is refused without echoing it (its
 * secret would stay in the terminal's history and logs), naming the id to pass instead.
 */
function keyIdArgument(command: string): ArgumentSpec {
  return {
    name: '<key_id>',
    check(given) {
      const whole = parseApiKey(given);
      if (whole) {
        throw new UsageError(
          `${command} takes the key's id, not the key: the id is the 16 characters between cpk_ and the next _ (here ${command} ${whole.keyId})`,
        );
      }
      if (!isApiKeyId(given)) {
        throw new UsageError(
          `${command} takes the key's id: 16 letters and digits, the part between cpk_ and the next _ of the key (cpk_<key_id>_<secret>)`,
        );
      }
    },
  };
}

/** --renewal-horizon-days: whole days from 0 to the most allowed. */
function renewalHorizonOption(options: CommandInput['options']): number {
  return renewalHorizonOf(required(options, 'renewal-horizon-days'));
}

function renewalHorizonOf(value: string): number {
  const days = Number(value);
  if (!/^\d+$/.test(value) || !isRenewalHorizonDays(days)) {
    throw new UsageError(
      `--renewal-horizon-days must be a whole number of days from 0 to ${MAX_RENEWAL_HORIZON_DAYS}; got ${value}`,
    );
  }
  return days;
}

/** --max-upfront-cost: dollars, or `none` for no cap. */
function maxUpfrontOption(options: CommandInput['options']): number | null {
  return maxUpfrontOf(required(options, 'max-upfront-cost'));
}

function maxUpfrontOf(value: string): number | null {
  if (value === 'none') return null;
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0) {
    throw new UsageError(`--max-upfront-cost must be dollars (0 or more) or none; got ${value}`);
  }
  return amount;
}

export const orgCommands: readonly AdminCommand[] = [
  defineCommand({
    name: 'create-partner',
    summary: 'a partner org and its partner API key (printed once)',
    options: [{ name: 'name', value: '<name>', required: true }],
    needs: ['store', 'usagePlanKeys'],
    async run({ store, usagePlanKeys }, { options }) {
      const { org, key } = await createPartner(store.ctx, required(options, 'name'));
      await usagePlanKeys?.register(key.keyId);
      return { ...orgJson(org), key_id: key.keyId, api_key: key.apiKey };
    },
  }),
  defineCommand({
    name: 'create-org',
    summary: "an org, optionally a partner's child",
    options: [
      { name: 'name', value: '<name>', required: true },
      { name: 'partner', value: '<partner_org_id>' },
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const partner = optional(options, 'partner') ?? null;
      return orgJson(await createOrg(store.ctx, required(options, 'name'), partner));
    },
  }),
  defineCommand({
    name: 'create-key',
    summary: 'a user API key (printed once), creating the user and its membership if needed',
    options: [
      { name: 'org', value: '<org_id>', required: true },
      { name: 'email', value: '<email>', required: true },
      {
        name: 'role',
        value: '<role>',
        required: true,
        choices: membershipRoles,
        help: `roles: ${membershipRoles.join(', ')}`,
      },
    ],
    needs: ['store', 'usagePlanKeys'],
    async run({ store, usagePlanKeys }, { options }) {
      const email = required(options, 'email');
      if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 255) {
        throw new UsageError(`--email must be an e-mail address of at most 255 characters; got ${email}`);
      }
      const role = required(options, 'role') as MembershipRole;
      const { membership, key } = await createUserKey(store.ctx, required(options, 'org'), email, role);
      await usagePlanKeys?.register(key.keyId);
      return {
        org_id: membership.orgId,
        email: membership.email,
        role: membership.role,
        key_id: key.keyId,
        api_key: key.apiKey,
      };
    },
  }),
  defineCommand({
    name: 'revoke-key',
    summary: 'revoke an API key at once; its id is the part between cpk_ and the next _',
    args: [keyIdArgument('revoke-key')],
    options: [],
    needs: ['store', 'usagePlanKeys'],
    async run({ store, usagePlanKeys }, { args }) {
      const keyId = args[0] ?? '';
      const record = await revokeKey(store.ctx, keyId);
      // The authorizer refuses the key already; this frees its API Gateway key (a regional quota).
      await usagePlanKeys?.remove(keyId);
      return { key_id: record.keyId, revoked_at: record.revokedAt };
    },
  }),
  defineCommand({
    name: 'register-usage-key',
    summary:
      "on AWS, give an existing API key (made before the usage plan) its throttle bucket in the deployed API's usage plan; locally there is no usage plan: it prints registered: false",
    args: [keyIdArgument('register-usage-key')],
    options: [],
    needs: ['store', 'usagePlanKeys'],
    async run({ store, usagePlanKeys }, { args }) {
      const keyId = args[0] ?? '';
      const record = await store.ctx.repos.apiKeys.get(keyId);
      if (!record || record.revokedAt !== null) throw new UsageError(`no unrevoked API key ${keyId}`);
      await usagePlanKeys?.register(keyId);
      return { key_id: keyId, registered: usagePlanKeys !== null };
    },
  }),
  defineCommand({
    name: 'list-orgs',
    summary: 'every org',
    options: [],
    needs: ['store'],
    async run({ store }) {
      return { orgs: (await listOrgs(store.ctx)).map(orgJson) };
    },
  }),
  defineCommand({
    name: 'set-org',
    summary: "change the org's settings (at least one option)",
    options: [
      { name: 'org', value: '<org_id>', required: true },
      {
        name: 'sharing',
        value: '<scope>',
        choices: commitmentSharings,
        help: "whose usage the org's commitments cover: organization (every account; the default) or account (the buying account's only); recomputes the org's plans",
      },
      {
        name: 'renewal-horizon-days',
        check: renewalHorizonOf,
        value: '<days>',
        help: `a commitment ending within this many days (0-${MAX_RENEWAL_HORIZON_DAYS}; default 30) is renewed, not counted; recomputes the org's plans`,
      },
      {
        name: 'max-upfront-cost',
        value: '<usd|none>',
        check: maxUpfrontOf,
        help: "the most the org's purchases may pay upfront over any 30 days (none: no cap)",
      },
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const { ctx } = store;
      const orgId = required(options, 'org');
      const horizonGiven = options['renewal-horizon-days'] !== undefined;
      if (options.sharing === undefined && options['max-upfront-cost'] === undefined && !horizonGiven) {
        throw new UsageError('set-org needs --sharing, --renewal-horizon-days or --max-upfront-cost');
      }
      // Every option is checked before anything is written.
      const sharing = optional(options, 'sharing') as CommitmentSharing | undefined;
      const horizon = horizonGiven ? renewalHorizonOption(options) : undefined;
      const maxUpfront = options['max-upfront-cost'] === undefined ? undefined : maxUpfrontOption(options);
      let result: { org: Organization; recomputed: readonly Provider[] } | null = null;
      if (sharing !== undefined) result = await setCommitmentSharing(ctx, orgId, sharing);
      if (horizon !== undefined) {
        const changed = await setRenewalHorizonDays(ctx, orgId, horizon);
        result = {
          org: changed.org,
          recomputed: [...new Set([...(result?.recomputed ?? []), ...changed.recomputed])],
        };
      }
      const org = maxUpfront === undefined ? result?.org : await setMaxUpfrontCost(ctx, orgId, maxUpfront);
      if (!org) throw new UsageError('set-org changed nothing');
      return {
        org_id: org.id,
        commitment_sharing: org.commitmentSharing,
        renewal_horizon_days: org.renewalHorizonDays,
        max_upfront_cost: org.maxUpfrontCost,
        ...(result ? { recomputed_providers: result.recomputed } : {}),
      };
    },
  }),
];
