import { useEffect, useState } from 'react';
import { emit, emitWithAck, isSocketConnected, subscribe, type StoreUpdateEvent } from '@/lib/socket';

/**
 * The store's live state from its staff (`store:update`: open, busy or closed with a notice,
 * sold-out products), followed while a page shows that store. It joins the store's room with
 * `store:watch` at every connect (joining twice is harmless; a connect the server did not
 * recover has lost the room), and answers null until the first update: the page shows what it
 * loaded until the staff change something.
 */
export function useStoreLive(storeCode: string | null): StoreUpdateEvent | null {
  const [live, setLive] = useState<StoreUpdateEvent | null>(null);
  useEffect(() => {
    setLive(null);
    if (!storeCode) return undefined;
    const watch = () => void emitWithAck('/', 'store:watch', { storeCode }).catch(() => undefined);
    const offUpdate = subscribe('/', 'store:update', (ev) => {
      if (ev && ev.storeCode === storeCode && Array.isArray(ev.soldOut)) setLive(ev);
    });
    const offConnect = subscribe('/', 'connect', watch);
    if (isSocketConnected('/')) watch();
    return () => {
      offUpdate();
      offConnect();
      if (isSocketConnected('/')) emit('/', 'store:unwatch', { storeCode });
    };
  }, [storeCode]);
  return live;
}
