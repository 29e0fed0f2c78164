/**
 * `npm run lint` runs this after eslint: no import circles anywhere in the product code.
 * (The layering itself is eslint's no-restricted-imports; see eslint.config.mjs.)
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle in the import graph ties modules together that should depend one way (docs/architecture.md).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
