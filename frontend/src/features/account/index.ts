/** The account feature: login state, sign-in pages, personal centre, privacy and SMS dialogs. */
export { LoginPage } from './components/LoginPage';
export { RegisterPage } from './components/RegisterPage';
export { ResetPasswordPage } from './components/ResetPasswordPage';
export { MyPage } from './components/MyPage';
export { PersonalInfoPage } from './components/PersonalInfoPage';
export { UpdateUserInfoPage } from './components/UpdateUserInfoPage';
export { UpdatePasswordPage } from './components/UpdatePasswordPage';
export { CancellationPage } from './components/CancellationPage';
export { PolicyPage } from './components/PolicyPage';
export { SessionDialogs } from './components/SessionDialogs';
export { PrivacyConsentDialog } from './components/PrivacyConsentDialog';
export { RequireLogin, GuestOnly } from './components/RequireLogin';
export { VisitorState, type VisitorKind } from './components/VisitorState';
export { VisitorConsent, visitorAgreed } from './components/VisitorConsent';
export { useAccount, useLoggedIn, getToken, resetAccount } from './store/session';
export { rememberRedirect, takeRedirect, peekRedirect, settleRedirect, REDIRECT_TTL_S } from './store/redirect';
export { maskPhone } from './maskPhone';
