import { useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { ChevronRightIcon, ClockIcon } from '@/components/Icons';
import { useQuery } from '@/hooks/useQuery';
import { now } from '@/lib/clock';
import { useLang, useT } from '@/lib/i18n';
import type { OrderType } from '@/lib/orders';
import { formatClock, formatDayTime } from '@/utils/time';
import { getReservationSlots } from '../api/checkout';

export interface TimePickerProps {
  storeCode: string;
  orderType: OrderType;
  /** The cart's order time (the reservation's answer); null before one is set. */
  orderTime: number | null;
  isBookOrder: boolean;
  /** Scan-to-order: the time is now, nothing to choose. */
  fixed?: boolean;
  disabled?: boolean;
  /** ASAP (null) or a booked slot (epoch ms). Answers whether the reservation went through. */
  onChoose: (slot: number | null) => Promise<boolean>;
}

/**
 * The order time: as soon as possible (the time the reservation answered), or a booked day and
 * 15-minute slot from GET /orders/reservation/slots — offered only when the store takes bookings.
 */
export function TimePicker({ storeCode, orderType, orderTime, isBookOrder, fixed, disabled, onChoose }: TimePickerProps) {
  const t = useT();
  const lang = useLang();
  const slots = useQuery(fixed ? null : `slots:${storeCode}:${orderType}`, (signal) => getReservationSlots(storeCode, orderType, signal));
  const days = slots.data?.days ?? [];
  const bookable = days.some((d) => d.slots.length > 0);
  const [open, setOpen] = useState(false);
  const [dayIndex, setDayIndex] = useState(0);
  const label = orderType === 0 ? t('checkout.time.delivery') : orderType === 1 ? t('checkout.time.pickup') : t('checkout.time.dineIn');
  const when =
    orderTime === null
      ? t('checkout.time.asap')
      : isBookOrder
        ? t('checkout.time.booked', { time: formatDayTime(orderTime, lang, now()) })
        : t(orderType === 0 ? 'checkout.time.asapAt' : orderType === 1 ? 'checkout.time.asapPickup' : 'checkout.time.asapDineIn', {
            time: formatClock(orderTime),
          });

  const choose = async (slot: number | null) => {
    if (await onChoose(slot)) setOpen(false);
  };

  const openPicker = () => {
    const idx = isBookOrder && orderTime !== null ? days.findIndex((d) => d.slots.includes(orderTime)) : 0;
    setDayIndex(idx >= 0 ? idx : 0);
    setOpen(true);
  };

  const day = days[dayIndex];
  return (
    <>
      <button
        type="button"
        className="co-row co-row--btn"
        onClick={openPicker}
        disabled={!bookable || disabled}
        data-testid="checkout-time"
        aria-haspopup={bookable ? 'dialog' : undefined}
      >
        <ClockIcon className="co-row__icon" />
        <span className="co-row__label">{label}</span>
        <span className="co-row__value" data-testid="checkout-time-value" data-book={isBookOrder ? 'true' : 'false'}>
          {when}
        </span>
        {bookable && <ChevronRightIcon className="co-row__chev" />}
      </button>
      <Dialog open={open} position="bottom" title={t('checkout.time.choose')} onClose={() => setOpen(false)} noFooter>
        <div className="co-time" data-testid="time-picker">
          <button
            type="button"
            className={`co-time__asap${!isBookOrder ? ' co-time__asap--on' : ''}`}
            onClick={() => void choose(null)}
            disabled={disabled}
            data-testid="time-asap"
          >
            {t('checkout.time.asap')}
            {slots.data && <small>{t('checkout.time.asapAbout', { time: formatClock(isBookOrder || orderTime === null ? slots.data.asap : orderTime) })}</small>}
          </button>
          <div className="co-time__cols">
            <div className="co-time__days" role="tablist">
              {days.map((d, i) => (
                <button
                  key={d.date}
                  type="button"
                  role="tab"
                  aria-selected={i === dayIndex}
                  className={`co-time__day${i === dayIndex ? ' co-time__day--on' : ''}`}
                  onClick={() => setDayIndex(i)}
                  data-testid={`time-day-${i}`}
                  data-date={d.date}
                >
                  {d.label || d.date}
                </button>
              ))}
            </div>
            <div className="co-time__slots" role="tabpanel">
              {day && day.slots.length === 0 && <p className="muted">{t('checkout.time.noSlots')}</p>}
              {day?.slots.map((s, i) => {
                const on = isBookOrder && s === orderTime;
                return (
                  <button
                    key={s}
                    type="button"
                    className={`co-time__slot${on ? ' co-time__slot--on' : ''}`}
                    onClick={() => void choose(s)}
                    disabled={disabled}
                    data-testid={`time-slot-${dayIndex}-${i}`}
                    data-slot={s}
                  >
                    {formatClock(s)}
                  </button>
                );
              })}
            </div>
          </div>
        </div>
      </Dialog>
    </>
  );
}
