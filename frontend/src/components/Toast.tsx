import { create } from 'zustand';
import './Toast.css';

interface ToastState {
  message: string | null;
  id: number;
  show: (message: string, ms?: number) => void;
  hide: () => void;
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** One toast at a time; default 3 s (spec account §9), cart toasts pass 2000. */
export const useToast = create<ToastState>((set, get) => ({
  message: null,
  id: 0,
  show: (message, ms = 3000) => {
    clearTimeout(timer);
    set({ message, id: get().id + 1 });
    timer = setTimeout(() => set({ message: null }), ms);
  },
  hide: () => {
    clearTimeout(timer);
    set({ message: null });
  },
}));

export function showToast(message: string, ms?: number): void {
  useToast.getState().show(message, ms);
}

export function ToastHost() {
  const message = useToast((s) => s.message);
  const id = useToast((s) => s.id);
  if (!message) return null;
  return (
    <div className="toast" role="status" aria-live="polite" key={id}>
      {message}
    </div>
  );
}
