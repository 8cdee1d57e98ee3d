import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startClock } from '@/lib/clock';
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
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
