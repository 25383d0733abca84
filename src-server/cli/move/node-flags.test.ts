// The move's Node flags: the server's, added to those this process lacks, never over the operator's.
import { describe, expect, it } from 'vitest';
import NODE_FLAGS from '../../node-flags.json';
import { missingNodeFlags } from './node-flags';

describe('the Node flags a move starts again with', () => {
  it('are the server flags the process lacks', () => {
    expect(missingNodeFlags([])).toEqual(NODE_FLAGS.server);
    expect(missingNodeFlags(['--enable-source-maps'])).toEqual(NODE_FLAGS.server);
  });

  it('leave a flag the operator set at their value', () => {
    expect(missingNodeFlags(['--max-semi-space-size=32', '--enable-source-maps'])).toEqual([
      '--initial-old-space-size=16',
      '--heap-growing-percent=20',
    ]);
    expect(missingNodeFlags(NODE_FLAGS.server)).toEqual([]);
  });
});
