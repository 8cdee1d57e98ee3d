// The privacy and SMS dialogs as a chunk of their own (AppLayout), never before the first screen:
// the signed-in user's, and the visitor's privacy consent.
export { SessionDialogs, VisitorConsent } from '@/features/account';
