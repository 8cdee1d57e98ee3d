import { useRef, useState } from 'react';
import { useT } from '@/lib/i18n';

/** Product pictures: swipe (scroll-snap) with dots. */
export function Gallery({ images, alt }: { images: string[]; alt: string }) {
  const t = useT();
  const [index, setIndex] = useState(0);
  const track = useRef<HTMLDivElement>(null);
  const go = (i: number) => {
    const el = track.current;
    if (el && typeof el.scrollTo === 'function') el.scrollTo({ left: i * el.clientWidth, behavior: 'smooth' });
    setIndex(i);
  };
  if (images.length === 0) return <div className="gallery gallery--empty" />;
  return (
    <div className="gallery">
      <div
        className="gallery__track"
        ref={track}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
        }}
      >
        {images.map((src, i) => (
          <img key={src} className="gallery__img" src={src} alt={i === 0 ? alt : t('product.image', { n: i + 1 })} />
        ))}
      </div>
      {images.length > 1 && (
        <div className="dots gallery__dots">
          {images.map((src, i) => (
            <button
              key={src}
              type="button"
              className={`dots__dot${i === index ? ' dots__dot--on' : ''}`}
              aria-label={t('product.image', { n: i + 1 })}
              aria-current={i === index}
              onClick={() => go(i)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
