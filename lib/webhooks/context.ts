import "server-only";
import { clientIpOf } from "../api/client";
import { actorOf, requestMetaOf } from "../audit/record";
import type { Principal } from "../auth/authenticate";
import type { ChangeContext } from "./endpoints";

/** Who changes a webhook through the API or the dashboard, and from what request, for the audit trail. */
export function changeContextOf(input: { principal: Principal; requestId: string; headers: Headers }): ChangeContext {
  return {
    actor: actorOf(input.principal),
    request: requestMetaOf(input.requestId, clientIpOf(input.headers), input.headers),
  };
}
