import { useNavigate } from 'react-router';
import { Header } from '@/components/Header';
import { NearMePanel } from '@/features/location';
import { StoreFinder, useCurrentStore, useStoreSelection } from '@/features/store';
import { useT } from '@/lib/i18n';
import type { Store } from '@/lib/api/types';

/** /findStore: the store finder, with the location feature composed into its "near me" tab. */
export function FindStoreRoute() {
  const t = useT();
  const navigate = useNavigate();
  const { store, source } = useCurrentStore();
  const selectStore = useStoreSelection((s) => s.selectStore);

  const choose = (chosen: Store) => {
    selectStore(chosen);
    void navigate('/menu');
  };

  return (
    <>
      <Header title={t('store.title')} />
      <StoreFinder
        currentStoreCode={source === 'scanned' || source === 'selected' || source === 'gps' ? store?.storeCode : null}
        onChoose={choose}
        renderNearPanel={(actions) => (
          <NearMePanel
            onLocated={(l) => actions.showNearby(l.point, { label: l.label, fromGps: l.fromGps, note: l.note })}
            onAddress={(poi) => actions.showDeliveringTo(poi.point, poi.name)}
          />
        )}
      />
    </>
  );
}
