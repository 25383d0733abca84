import type { DesktopSettings } from './remote-settings';

/** IPC channel names shared by the main process and the preload. */
export const CHANNELS = {
  getConnection: 'taskreward:get-connection',
  setConnection: 'taskreward:set-connection',
} as const;

/** All the renderer ever sees of the desktop shell (on the connection page only). */
export interface DesktopBridge {
  getConnection(): Promise<DesktopSettings>;
  setConnection(change: {
    mode: 'local' | 'remote';
    remoteUrl?: string;
  }): Promise<{ settings: DesktopSettings } | { error: string }>;
}
