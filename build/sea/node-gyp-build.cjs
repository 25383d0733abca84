// The single binary's stand-in for `node-gyp-build`: argon2 calls require('node-gyp-build')(__dirname),
// which loads argon2's addon embedded as a SEA asset.
const { loadEmbeddedAddon } = require('../../src-server/cli/embedded.ts');

module.exports = () => loadEmbeddedAddon('argon2.node');
