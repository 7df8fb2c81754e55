/**
 * The ExternalId a customer's onboarding role requires of the service (the `sts:ExternalId`
 * condition): one per org, random, kept secret. It guards against the confused deputy: another
 * customer who learns the role's ARN cannot make the service use it, since the service only ever
 * presents the id of the org the role was onboarded for.
 */
const EXTERNAL_ID = /^cpo-[0-9a-f]{32}$/;

/** The external id drawn from a random (version 4) UUID: 122 random bits, in what STS accepts. */
export function externalIdFromUuid(uuid: string): string {
  const hex = uuid.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new RangeError(`Not a UUID: ${JSON.stringify(uuid)}`);
  return `cpo-${hex}`;
}

export function isExternalId(value: string): boolean {
  return EXTERNAL_ID.test(value);
}
