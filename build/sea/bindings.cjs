// The single binary's stand-in for the `bindings` package: better-sqlite3 calls
// require('bindings')('better_sqlite3.node'), which loads the addon embedded as a SEA asset.
const { loadEmbeddedAddon } = require('../../src-server/cli/embedded.ts');

module.exports = (name) => loadEmbeddedAddon(name.endsWith('.node') ? name : `${name}.node`);
