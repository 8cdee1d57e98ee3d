import { useEffect, useRef, useState } from 'react';
import { useT } from '@/lib/i18n';

export interface Slide {
  src: string;
  alt: string;
  onClick?: () => void;
}

const INTERVAL_MS = 4000;

/** Banners: auto-advance, swipe (scroll-snap), dots; pauses while touched. */
export function Carousel({ slides }: { slides: Slide[] }) {
  const t = useT();
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  const go = (i: number) => {
    const el = track.current;
    const n = slides.length;
    const next = ((i % n) + n) % n;
    if (el && typeof el.scrollTo === 'function') el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' });
    setIndex(next);
  };

  useEffect(() => {
    if (paused || slides.length < 2) return undefined;
    const timer = setInterval(() => {
      const el = track.current;
      if (!el || el.clientWidth === 0) return;
      const current = Math.round(el.scrollLeft / el.clientWidth);
      const next = (current + 1) % slides.length;
      if (typeof el.scrollTo === 'function') el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' });
      setIndex(next);
    }, INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, slides.length]);

  return (
    <div
      className="carousel"
      onPointerDown={() => setPaused(true)}
      onPointerUp={() => setPaused(false)}
      onPointerCancel={() => setPaused(false)}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      aria-roledescription="carousel"
    >
      <div
        className="carousel__track"
        ref={track}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
        }}
      >
        {slides.map((s, i) => (
          <button
            key={s.src}
            type="button"
            className="carousel__slide"
            onClick={s.onClick}
            aria-roledescription="slide"
            aria-label={`${i + 1} / ${slides.length}: ${s.alt}`}
            tabIndex={i === index ? 0 : -1}
          >
            <img src={s.src} alt={s.alt} draggable={false} />
          </button>
        ))}
      </div>
      {slides.length > 1 && (
        <div className="dots carousel__dots">
          {slides.map((s, i) => (
            <button
              key={s.src}
              type="button"
              className={`dots__dot${i === index ? ' dots__dot--on' : ''}`}
              aria-label={t('home.banner', { n: i + 1 })}
              aria-current={i === index}
              onClick={() => go(i)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
