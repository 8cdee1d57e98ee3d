import { describe, expect, it } from 'vitest';
import { bannerUrls } from './components/HomePage';

describe('bannerUrls', () => {
  it.each([
    ['zh', ['/images/banner-1.svg', '/images/banner-2.svg', '/images/banner-3.svg']],
    ['en', ['/images/banner-1-en.svg', '/images/banner-2-en.svg', '/images/banner-3-en.svg']],
  ] as const)('shows the %s banners', (lang, urls) => {
    expect(bannerUrls(lang)).toEqual(urls);
  });
});
