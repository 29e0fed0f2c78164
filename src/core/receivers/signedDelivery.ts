/**
 * The opening every signed receiver shares (Slack, Linear, Sentry): a delivery names the
 * connection it claims to come from in its body, and is trusted only when that connection's
 * own secret signed the raw bytes (each provider's HMAC, compared in constant time). Whatever
 * fails — an unreadable body, no such connection, a connection whose secret cannot be opened,
 * a signature that does not match — gets the same refusal, so a caller learns nothing about
 * which organizations are connected.
 */
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { ConnectionProvider, ConnectionsRepository, SealedConnectionRow } from '../../db/connectionsRepository';
import type { DomainError } from '../../domain/errors';
import { parseJsonText } from '../../domain/inputHygiene';
import type { Logger } from '../../logger';

export interface SignedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A header's first value. */
export const header = (req: Pick<SignedRequest, 'headers'>, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export interface SignedDeliverySpec {
  provider: ConnectionProvider;
  /** The one refusal for a delivery that cannot be trusted; `details` say why, for a provider that tells. */
  rejected(details: string): DomainError;
  /** What the refusal says when the body names no connected organization or its signature does not match. */
  mismatch: string;
  /** The connection's external id that the body names, or null. */
  externalId(body: unknown): string | null;
  /** The secret that signs deliveries, from the connection's opened secrets (throws or null when absent). */
  signingSecret(secrets: Record<string, unknown>, connection: SealedConnectionRow): string | null;
  /** Whether `secret` signed this request. */
  signedWith(secret: string, req: SignedRequest): boolean;
  /** Connections that may have signed a body that names none (Slack's url_verification); none by default. */
  unnamed?(body: unknown): Promise<SealedConnectionRow[]>;
}

export interface SignedDelivery {
  body: unknown;
  connection: SealedConnectionRow;
}

export function createSignedDeliveryOpener(
  deps: { connections: Pick<ConnectionsRepository, 'findByExternalId'>; secretBox: SecretBox; logger: Logger },
  spec: SignedDeliverySpec,
) {
  function secretOf(connection: SealedConnectionRow): string | null {
    try {
      const secrets = JSON.parse(deps.secretBox.open(connection.secrets_sealed, sealedField('connections', 'secrets_sealed', connection.id))) as Record<string, unknown>;
      return spec.signingSecret(secrets ?? {}, connection);
    } catch (err) {
      deps.logger.error(`a ${spec.provider} connection has unreadable secrets`, { connectionId: connection.id, err: err as Error });
      return null;
    }
  }

  const signedBy = (connection: SealedConnectionRow, req: SignedRequest) => {
    const secret = secretOf(connection);
    return secret !== null && spec.signedWith(secret, req);
  };

  /** The body and the connection whose secret signed it, or the refusal. */
  return async function open(req: SignedRequest): Promise<SignedDelivery> {
    let body: unknown;
    try {
      body = parseJsonText(req.body.toString('utf8'));
    } catch {
      // Unreadable: no organization to verify against, the same answer as a forged delivery.
      throw spec.rejected('the body is not JSON');
    }
    const externalId = spec.externalId(body);
    if (externalId !== null) {
      const connection = await deps.connections.findByExternalId(spec.provider, externalId);
      if (connection && signedBy(connection, req)) return { body, connection };
    } else if (spec.unnamed) {
      for (const connection of await spec.unnamed(body)) if (signedBy(connection, req)) return { body, connection };
    }
    throw spec.rejected(spec.mismatch);
  };
}
