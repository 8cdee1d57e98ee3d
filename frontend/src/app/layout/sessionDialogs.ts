// The privacy and SMS dialogs as a chunk of their own (AppLayout): only a signed-in visitor needs
// them, and never before the first screen.
export { SessionDialogs } from '@/features/account';
