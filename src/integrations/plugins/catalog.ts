/** The native plugins this Hangar serves (`GET /v1/plugins/catalog`). */
import { githubPlugin } from './githubPlugin';
import type { NativePlugin } from './native';

export const NATIVE_PLUGINS: readonly NativePlugin[] = [githubPlugin];

export const nativePlugin = (slug: string): NativePlugin | null => NATIVE_PLUGINS.find((p) => p.slug === slug) ?? null;
