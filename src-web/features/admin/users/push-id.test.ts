import { describe, expect, it } from 'vitest';
import { pushIdOf } from './push-id';

describe('pushIdOf', () => {
  it('prefers the OneSignal id', () => {
    expect(pushIdOf({ oneSignalId: 'os-1', device_id: 'dev-1' })).toBe('os-1');
  });

  it('falls back to the device id', () => {
    expect(pushIdOf({ oneSignalId: null, device_id: 'dev-1' })).toBe('dev-1');
    expect(pushIdOf({ oneSignalId: '  ', device_id: ' dev-1 ' })).toBe('dev-1');
  });

  it('is null without either, so no notify button shows', () => {
    expect(pushIdOf({ oneSignalId: null, device_id: null })).toBeNull();
    expect(pushIdOf({ oneSignalId: '', device_id: ' ' })).toBeNull();
  });
});
