/** Desktop app downloads and updates (interop §11). */
import { object } from './common';

/** The Mac processor architectures releases are published for. */
export const MAC_ARCHES = ['arm64', 'x64'] as const;

const arch = { type: 'string', description: `Mac processor architecture: ${MAC_ARCHES.join(' or ')} (anything else is 404)` } as const;

export const macDownloadParams = object({ arch }, ['arch']);
export const macUpdateParams = object(
  { arch, version: { type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$', description: 'The installed version' } },
  ['arch', 'version'],
);
export const releaseFileParams = object({ token: { type: 'string', maxLength: 4096 } }, ['token']);

export const updateSchema = object(
  { url: { type: 'string', format: 'uri' }, name: { type: 'string' }, notes: { type: 'string' }, pub_date: { type: 'string', format: 'date-time' } },
  ['url', 'name', 'notes', 'pub_date'],
);
