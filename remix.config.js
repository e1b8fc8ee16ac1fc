/** @type {import('@remix-run/dev').AppConfig} */
// ASSAY_BUILD_DIR: a test that builds (the client-bundle check) writes elsewhere, never over the build
// that servers started by other tests are reading.
const buildDir = process.env.ASSAY_BUILD_DIR;

export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  ...(buildDir
    ? { serverBuildPath: `${buildDir}/index.js`, assetsBuildDirectory: `${buildDir}/public/build` }
    : {}),
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
};
