/**
 * A request says here that it proved to be a workspace (its engine secret or AI gateway key
 * checked against the replica's record). The rate limiter reads it after the route has run: only
 * a credential that proved itself may choose that workspace's bucket next time.
 */
import type { Context } from 'koa';

const verified = new WeakMap<Context, string>();

export function markWorkspaceVerified(ctx: Context, workspaceId: string): void {
  verified.set(ctx, workspaceId.toLowerCase());
}

/** The workspace this request proved to be, if it did. */
export const verifiedWorkspaceOf = (ctx: Context): string | undefined => verified.get(ctx);
