// The connection page's preload: exposes two calls through contextBridge and nothing else.
// The admin window itself gets no preload at all.
import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type DesktopBridge } from './bridge';

const bridge: DesktopBridge = {
  getConnection: () => ipcRenderer.invoke(CHANNELS.getConnection),
  setConnection: (change) => ipcRenderer.invoke(CHANNELS.setConnection, change),
};

contextBridge.exposeInMainWorld('taskrewardDesktop', bridge);
