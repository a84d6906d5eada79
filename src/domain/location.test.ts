import { describe, expect, it } from 'vitest';
import { mapsUrl } from './location';

describe('mapsUrl', () => {
  it('opens the location in an external maps service', () => {
    const url = new URL(mapsUrl({ lat: 19.076, lng: 72.8777 }));
    expect(url.protocol).toBe('https:');
    expect(url.hostname).toBe('www.google.com');
    expect(url.searchParams.get('query')).toBe('19.076,72.8777');
  });
  it('refuses coordinates outside the globe', () => {
    expect(() => mapsUrl({ lat: 91, lng: 0 })).toThrow(/Latitude/);
    expect(() => mapsUrl({ lat: 0, lng: -181 })).toThrow(/Longitude/);
  });
});
