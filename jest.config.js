/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } },
    ],
  },
  // Sources import with .js endings (NodeNext); map them back to the .ts files under test.
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // The ESM build imports its JSON metadata without an import attribute, which Jest warns about
    // on every file; the CommonJS build is the same library and metadata.
    '^libphonenumber-js/max$': '<rootDir>/node_modules/libphonenumber-js/max/index.cjs',
  },
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/global-setup.cjs',
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
};
