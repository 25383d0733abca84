// The connection page's script (runs in the sandboxed renderer, sees only the bridge).
import type { DesktopBridge } from './bridge';

const bridge = (window as unknown as { taskrewardDesktop: DesktopBridge }).taskrewardDesktop;
const form = document.getElementById('form') as HTMLFormElement;
const url = document.getElementById('url') as HTMLInputElement;
const message = document.getElementById('message') as HTMLParagraphElement;

function radio(value: 'local' | 'remote'): HTMLInputElement {
  return form.querySelector(`input[name="mode"][value="${value}"]`) as HTMLInputElement;
}

void bridge.getConnection().then((settings) => {
  radio(settings.mode).checked = true;
  url.value = settings.remoteUrl ?? '';
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const mode = radio('remote').checked ? 'remote' : 'local';
  message.textContent = '';
  void bridge.setConnection({ mode, remoteUrl: url.value }).then((result) => {
    if ('error' in result) message.textContent = result.error;
  });
});
