import * as z from 'zod/mini';
import { uuid } from '../formats';

/** Path parameters shared by the operations of several function groups. */
export const orgPath = /* @__PURE__ */ z.lazy(() => z.strictObject({ org_id: uuid }));
export const planPath = /* @__PURE__ */ z.lazy(() => z.strictObject({ org_id: uuid, plan_id: uuid }));
export const partnerPath = /* @__PURE__ */ z.lazy(() => z.strictObject({ partner_org_id: uuid }));
export const childOrgPath = /* @__PURE__ */ z.lazy(() =>
  z.strictObject({ partner_org_id: uuid, child_org_id: uuid }),
);
