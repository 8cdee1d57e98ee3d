import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startClock } from '@/lib/clock';
import { getLang, loadDictionary } from '@/lib/i18n';
import { sessionStore, storage } from '@/lib/storage';
import { App } from './App';
import './styles/global.css';

// Expired local-storage entries are cleared on start-up (spec account §9).
storage.sweepExpired();
sessionStore.sweepExpired();
// The server clock (spec account §4): synced now, checked every 3 s, re-synced on a > 5 s drift.
startClock();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// An English visitor's words come first (a chunk of their own), so the first screen is English.
void loadDictionary(getLang()).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
