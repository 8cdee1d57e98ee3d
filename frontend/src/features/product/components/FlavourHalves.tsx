import { useId } from 'react';
import { useT } from '@/lib/i18n';
import type { FlavorOption } from '@/lib/api/types';

export interface FlavourHalvesProps {
  left: FlavorOption | undefined;
  right: FlavorOption | undefined;
  /** 0 left, 1 right: the half the next tap on a flavour fills. */
  active: number;
  onActivate: (half: number) => void;
}

/** A two-flavour pizza drawn as two halves; each half shows its flavour's picture. */
export function FlavourHalves({ left, right, active, onActivate }: FlavourHalvesProps) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const half = (side: 0 | 1, f: FlavorOption | undefined) => {
    const clip = `url(#${id}-${side})`;
    const label = side === 0 ? t('product.leftHalf') : t('product.rightHalf');
    return (
      <g
        role="button"
        tabIndex={0}
        aria-label={`${label}${f ? `: ${f.flavorName}` : ''}`}
        aria-pressed={active === side}
        onClick={() => onActivate(side)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') onActivate(side);
        }}
        className={`halves__half${active === side ? ' halves__half--on' : ''}`}
        data-testid={`half-${side}`}
      >
        <g clipPath={clip}>
          <circle cx="60" cy="60" r="56" fill={f ? '#f1d9a6' : '#f6efe6'} />
          {f?.imageURL ? (
            <image href={f.imageURL} x="4" y="4" width="112" height="112" preserveAspectRatio="xMidYMid slice" />
          ) : (
            <text x={side === 0 ? 32 : 88} y="66" textAnchor="middle" fontSize="18" fill="#b8a58c">
              ?
            </text>
          )}
        </g>
        <path
          d={side === 0 ? 'M60 4 A56 56 0 0 0 60 116 Z' : 'M60 4 A56 56 0 0 1 60 116 Z'}
          fill="none"
          stroke={active === side ? '#E31837' : 'transparent'}
          strokeWidth="3"
        />
      </g>
    );
  };
  return (
    <div className="halves">
      <svg viewBox="0 0 120 120" className="halves__pizza">
        <defs>
          <clipPath id={`${id}-0`}>
            <path d="M60 4 A56 56 0 0 0 60 116 Z" />
          </clipPath>
          <clipPath id={`${id}-1`}>
            <path d="M60 4 A56 56 0 0 1 60 116 Z" />
          </clipPath>
        </defs>
        <circle cx="60" cy="60" r="59" fill="#d89b4a" />
        {half(0, left)}
        {half(1, right)}
        <path d="M60 2v116" stroke="#fff" strokeWidth="2.5" />
      </svg>
      <div className="halves__labels">
        <button type="button" className={`halves__label${active === 0 ? ' halves__label--on' : ''}`} onClick={() => onActivate(0)}>
          <small>{t('product.leftHalf')}</small>
          {left ? left.flavorName : t('product.pickHalf', { half: t('product.leftHalf') })}
        </button>
        <button type="button" className={`halves__label${active === 1 ? ' halves__label--on' : ''}`} onClick={() => onActivate(1)}>
          <small>{t('product.rightHalf')}</small>
          {right ? right.flavorName : t('product.pickHalf', { half: t('product.rightHalf') })}
        </button>
      </div>
    </div>
  );
}
