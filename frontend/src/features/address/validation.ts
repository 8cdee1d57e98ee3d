/** The address form's checks (spec account §5); the server checks again and its field errors win. */
import type { MessageKey } from '@/lib/i18n';

export const CONTACT_MAX = 16;
export const HOUSE_MAX = 100;
const ILLEGAL = /[、|']/;
/** Letters of any script, digits, inner spaces, and the dots and hyphen of names. */
const CONTACT = /^[\p{L}\p{M}\d ·.-]+$/u;

export interface AddressDraft {
  name: string;
  phone: string;
  baseAddress: string;
  houseNumber: string;
  lat: string;
  lng: string;
}

/** The first error of each field (keys: name, phone, baseAddress, houseNumber). */
export function validateAddress(d: AddressDraft): Partial<Record<keyof AddressDraft, MessageKey>> {
  const out: Partial<Record<keyof AddressDraft, MessageKey>> = {};
  const name = d.name.trim();
  if (!name) out.name = 'valid.contactEmpty';
  else if ([...name].length > CONTACT_MAX) out.name = 'valid.contactMax';
  else if (!CONTACT.test(name)) out.name = 'valid.contactIllegal';

  const phone = d.phone.replace(/[\s-]/g, '');
  if (!phone) out.phone = 'valid.phoneEmpty';
  else if (!/^1[3-9]\d{9}$/.test(phone)) out.phone = 'valid.phoneFormat';

  const base = d.baseAddress.trim();
  if (!base) out.baseAddress = 'valid.baseAddressEmpty';
  else if (ILLEGAL.test(base)) out.baseAddress = 'valid.baseAddressIllegal';
  else if (isIllegalLatitude(d.lat) || !d.lng.trim()) out.baseAddress = 'valid.pickAddress';

  const house = d.houseNumber.trim();
  if (!house) out.houseNumber = 'valid.houseEmpty';
  else if (ILLEGAL.test(house)) out.houseNumber = 'valid.houseIllegal';
  else if ([...house].length > HOUSE_MAX) out.houseNumber = 'valid.houseMax';
  return out;
}

/** Spec §3: an address is illegal when the latitude is missing or 5 characters or fewer. */
export function isIllegalLatitude(lat: string | null | undefined): boolean {
  return !lat || lat.trim().length <= 5;
}
