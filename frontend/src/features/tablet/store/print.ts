/**
 * The kitchen ticket: the paper width and the automatic print on accept (kept in localStorage,
 * per tablet: each may have its own printer), and the one ticket being printed.
 */
import { create } from 'zustand';
import { storage } from '@/lib/storage';
import type { TabletOrder } from '../types';

export type Paper = '80' | '58';

export interface PrintSettings {
  paper: Paper;
  /** Off by default: a print dialog nobody expects would block the screen. */
  autoPrint: boolean;
}

const KEY = 'tablet.print';
export const DEFAULT_PRINT: PrintSettings = { paper: '80', autoPrint: false };

export function readPrintSettings(): PrintSettings {
  const saved = storage.get<Partial<PrintSettings>>(KEY);
  return {
    paper: saved?.paper === '58' ? '58' : '80',
    autoPrint: saved?.autoPrint === true,
  };
}

interface PrintState {
  settings: PrintSettings;
  /** The order whose ticket is on the print sheet now. */
  ticket: TabletOrder | null;
  update: (change: Partial<PrintSettings>) => void;
  print: (order: TabletOrder) => void;
  printed: () => void;
}

export const usePrint = create<PrintState>((set, get) => ({
  settings: readPrintSettings(),
  ticket: null,
  update: (change) => {
    const settings = { ...get().settings, ...change };
    storage.set(KEY, settings);
    set({ settings });
  },
  print: (order) => set({ ticket: order }),
  printed: () => set({ ticket: null }),
}));
