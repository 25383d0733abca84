import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { setupI18n } from './lib/i18n';
import './styles/app.css';

// the first render waits for the reader's language (its texts are a small chunk of their own);
// should that chunk fail to load, the app still starts (its texts then show as their keys)
const root = document.getElementById('root');
setupI18n()
  .catch(() => undefined)
  .then(() => {
    if (!root) return;
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });

// the service worker makes the app installable and keeps the shell usable offline
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
