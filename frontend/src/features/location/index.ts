/** The location feature: the customer's position (GPS, IP fallback) and address suggestions. */
export { NearMePanel, type Located, type NearMePanelProps } from './components/NearMePanel';
export { useLocation, resetLocation, type Permission, type LocateResult } from './store/location';
export {
  getBrowserPosition,
  fromPositionError,
  locationErrorKey,
  LocationError,
  LOCATION_ERROR,
  type LocationErrorCode,
} from './geolocation';
export { getIpLocation, reverseGeocode, getInputTips, searchPlaces, geocode } from './api/geo';
