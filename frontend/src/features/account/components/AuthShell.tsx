import type { ReactNode } from 'react';
import { Header } from '@/components/Header';
import { LanguageSwitch } from '@/components/LanguageSwitch';

/** The sign-in pages: a brand band with a greeting, the form on a card over it. */
export function AuthShell({ title, heading, sub, children }: { title: string; heading: string; sub?: string; children: ReactNode }) {
  return (
    <div className="auth">
      <Header title={title} variant="brand" right={<LanguageSwitch tone="dark" />} />
      <div className="auth__hero">
        <svg viewBox="0 0 40 40" className="auth__mark" aria-hidden="true">
          <circle cx="20" cy="20" r="19" fill="#fff" />
          <path d="M20 20 L20 4 A16 16 0 0 1 35.2 15 Z" fill="#E31837" />
          <circle cx="20" cy="20" r="14" fill="none" stroke="#E31837" strokeWidth="3" />
          <circle cx="14" cy="17" r="2.6" fill="#E31837" />
          <circle cx="23" cy="27" r="2.6" fill="#E31837" />
          <circle cx="13" cy="26" r="1.8" fill="#006491" />
          <circle cx="27" cy="21" r="1.8" fill="#006491" />
        </svg>
        <div>
          <h2 className="auth__heading">{heading}</h2>
          {sub && <p className="auth__sub">{sub}</p>}
        </div>
      </div>
      <div className="auth__card">{children}</div>
    </div>
  );
}
