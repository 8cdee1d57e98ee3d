/** The address feature: the address book, the address form with smart paste, the selected address. */
export { AddressList, type AddressListProps } from './components/AddressList';
export { AddressForm, AddressFields, type AddressFormProps, type TipSearch } from './components/AddressForm';
export { useSelectedAddress, selectedAddressId, resetSelectedAddress } from './store/selected';
export { validateAddress, isIllegalLatitude } from './validation';
export { listAddresses, getAddress } from './api/addresses';
