/**
 * Who is calling. An org key acts for the organization (admin rights over org resources,
 * none over personal ones); a personal key acts for its user with that user's role. Automation
 * runs act as their automation's owner, and a workspace's engine secret as the workspace's owner.
 */
import type { ApiKeyKind } from '../crypto/apiKeys';

export interface Actor {
  organizationId: string;
  /** Null for an org key: it acts for the organization, not a person. */
  userId: string | null;
  keyKind: ApiKeyKind;
  keyId: string;
  /** Org keys administer the organization; personal keys follow their user's role. */
  isAdmin: boolean;
}
