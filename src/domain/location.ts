import { z } from 'zod';
import { zNumber } from './fields';

export const ZLocation = z.object({
  lat: zNumber()
    .min(-90, 'Latitude must be between -90 and 90')
    .max(90, 'Latitude must be between -90 and 90'),
  lng: zNumber()
    .min(-180, 'Longitude must be between -180 and 180')
    .max(180, 'Longitude must be between -180 and 180'),
});
export type TLocation = z.infer<typeof ZLocation>;

/** The external maps service a location opens in (SPEC.md §2). */
export function mapsUrl(location: TLocation): string {
  const { lat, lng } = ZLocation.parse(location);
  const url = new URL('https://www.google.com/maps/search/');
  url.searchParams.set('api', '1');
  url.searchParams.set('query', `${lat},${lng}`);
  return url.toString();
}
