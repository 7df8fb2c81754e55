import * as z from 'zod/mini';
import { uuid } from '../formats';

/** Path parameters shared by the operations of several function groups. */
export const orgPath = z.strictObject({ org_id: uuid });
export const planPath = z.strictObject({ org_id: uuid, plan_id: uuid });
export const partnerPath = z.strictObject({ partner_org_id: uuid });
export const childOrgPath = z.strictObject({ partner_org_id: uuid, child_org_id: uuid });
