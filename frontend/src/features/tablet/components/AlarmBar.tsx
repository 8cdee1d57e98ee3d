import { useT } from '@/lib/i18n';
import type { SoundState } from '../sound';

export interface AlarmBarProps {
  ringing: boolean;
  rings: number;
  waiting: number;
  sound: SoundState;
  onEnableSound: () => void;
}

/** The ringing banner and, until the browser lets the tablet play sound, the "tap to enable" one. */
export function AlarmBar({ ringing, rings, waiting, sound, onEnableSound }: AlarmBarProps) {
  const t = useT();
  return (
    <>
      {sound === 'blocked' && (
        <button type="button" className="tab-sound" onClick={onEnableSound} data-testid="tablet-sound-enable">
          🔔 {t('tablet.sound.blocked')}
          <span className="tab-sound__cta">{t('tablet.sound.enable')}</span>
        </button>
      )}
      {sound === 'unsupported' && <div className="tab-sound tab-sound--info">{t('tablet.sound.unsupported')}</div>}
      {ringing && (
        <div className="tab-alarm" role="alert" data-testid="tablet-alarm" data-ringing="true" data-rings={rings}>
          {t(waiting === 1 ? 'tablet.alarm.one' : 'tablet.alarm.other', { n: waiting })}
        </div>
      )}
    </>
  );
}
