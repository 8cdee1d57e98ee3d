import { AddressTagBadge, useRecipient } from '@/components/AddressWho';
import { useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { Empty } from '@/components/Empty';
import { Header } from '@/components/Header';
import { AlertIcon, CheckIcon, PlusIcon } from '@/components/Icons';
import { Loading } from '@/components/Loading';
import { showToast } from '@/components/Toast';
import { useQuery } from '@/hooks/useQuery';
import { useT } from '@/lib/i18n';
import type { Address } from '@/lib/api/types';
import { deleteAddress, listAddresses, setDefaultAddress } from '../api/addresses';
import { useSelectedAddress } from '../store/selected';
import './Address.css';

export interface AddressListProps {
  /** manage: /address; select: /address/select and /selectAddress (a tap chooses). */
  mode: 'manage' | 'select';
  onAdd: () => void;
  onEdit: (id: number) => void;
  /** select mode: after choosing (the app goes back). */
  onChosen?: (address: Address) => void;
}

const TOAST_MS = 2000;

export function AddressList({ mode, onAdd, onEdit, onChosen }: AddressListProps) {
  const t = useT();
  const recipient = useRecipient();
  const [version, setVersion] = useState(0);
  const q = useQuery(`addresses:${version}`, (signal) => listAddresses(signal));
  const selected = useSelectedAddress((s) => s.address);
  const select = useSelectedAddress((s) => s.select);
  const [toDelete, setToDelete] = useState<Address | null>(null);
  const reload = () => setVersion((v) => v + 1);

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      showToast(done, TOAST_MS);
      reload();
    } catch (e) {
      // Server refusals (default or selected address, not found…) say why.
      showToast(e instanceof Error ? e.message : String(e), TOAST_MS);
    }
  };

  const choose = (a: Address) => {
    if (mode !== 'select') return;
    if (a.illegal) {
      onEdit(a.id);
      return;
    }
    select(a);
    onChosen?.(a);
  };

  const list = q.data ?? [];
  return (
    <div className="addr">
      <Header title={t(mode === 'select' ? 'address.selectTitle' : 'address.title')} />
      {!q.data ? (
        <Loading error={q.error?.message} onReload={q.reload} />
      ) : list.length === 0 ? (
        <Empty text={t('address.empty')} />
      ) : (
        <ul className="addr__list">
          {list.map((a) => {
            const isSelected = selected?.id === a.id;
            return (
              <li key={a.id} className={`acard${isSelected && mode === 'select' ? ' acard--on' : ''}`} data-testid={`address-${a.id}`}>
                <button type="button" className="acard__main" onClick={() => choose(a)} disabled={mode !== 'select'}>
                  <span className="acard__line">
                    {a.isDefault && (
                      <span className="badge badge--blue" data-testid={`address-${a.id}-default`}>
                        {t('address.default')}
                      </span>
                    )}
                    {isSelected && mode === 'select' && <span className="badge badge--ok">{t('address.selected')}</span>}
                    <AddressTagBadge tag={a.tag} testId={`address-${a.id}-tag`} />
                    <strong className="acard__addr">
                      {a.baseAddress} {a.houseNumber}
                    </strong>
                  </span>
                  <span className="acard__who" data-testid={`address-${a.id}-who`}>
                    {recipient(a)} {a.phone}
                  </span>
                  {a.illegal && (
                    <span className="acard__warn acard__warn--danger" data-testid={`address-${a.id}-illegal`}>
                      <AlertIcon /> {t('address.illegal')}
                    </span>
                  )}
                  {!a.illegal && !a.hasScope && (
                    <span className="acard__warn" data-testid={`address-${a.id}-out`}>
                      <AlertIcon /> {t('address.outOfRange')}
                    </span>
                  )}
                  {mode === 'select' && isSelected && <CheckIcon className="acard__check" />}
                </button>
                {mode === 'manage' && (
                  <div className="acard__actions">
                    {a.isDefault ? (
                      <span className="acard__isdef">
                        <CheckIcon /> {t('address.default')}
                      </span>
                    ) : (
                      <button type="button" className="link-btn" onClick={() => void act(() => setDefaultAddress(a.id), t('address.defaultSet'))} data-testid={`address-${a.id}-set-default`}>
                        {t('address.setDefault')}
                      </button>
                    )}
                    <span className="acard__spacer" />
                    <button type="button" className="link-btn" onClick={() => onEdit(a.id)} data-testid={`address-${a.id}-edit`}>
                      {t('address.edit')}
                    </button>
                    <button type="button" className="link-btn link-btn--danger" onClick={() => setToDelete(a)} data-testid={`address-${a.id}-delete`}>
                      {t('address.delete')}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="addr__foot">
        <button type="button" className="btn btn--primary btn--block" onClick={onAdd} data-testid="address-add">
          <PlusIcon /> {t('address.add')}
        </button>
      </div>
      <Dialog
        open={toDelete !== null}
        title={t('address.delete')}
        onConfirm={() => {
          const a = toDelete;
          setToDelete(null);
          if (a) void act(() => deleteAddress(a.id), t('address.deleted'));
        }}
        onCancel={() => setToDelete(null)}
      >
        <p className="dlg__text">{t('address.deleteConfirm')}</p>
      </Dialog>
    </div>
  );
}
