import { apiDelete, apiGet, apiPatch, apiPost } from '@/lib/api';
import type { LoginReply, MarketingSettings, MarketingState, Me, PrivacyState, Protocol, SentCode, SmsScene } from '@/lib/api/types';

export function sendSmsCode(cellPhone: string, scene: SmsScene): Promise<SentCode> {
  return apiPost<SentCode>('/auth/sms-code', { cellPhone, scene });
}

export function register(cellPhone: string, smsCode: string, password: string): Promise<LoginReply> {
  return apiPost<LoginReply>('/auth/register', { cellPhone, smsCode, password, privacyAgreed: true });
}

export function loginByPassword(cellPhone: string, password: string): Promise<LoginReply> {
  return apiPost<LoginReply>('/auth/login', { cellPhone, password });
}

/** Registers a new phone on the fly when `privacyAgreed` is true. */
export function loginBySms(cellPhone: string, smsCode: string, privacyAgreed: boolean): Promise<LoginReply> {
  return apiPost<LoginReply>('/auth/login/sms', { cellPhone, smsCode, privacyAgreed });
}

export function logoutCall(): Promise<null> {
  return apiPost<null>('/auth/logout');
}

export function resetPassword(cellPhone: string, smsCode: string, password: string): Promise<null> {
  return apiPost<null>('/auth/password/reset', { cellPhone, smsCode, password });
}

export function changePassword(oldPassword: string | null, newPassword: string): Promise<null> {
  return apiPost<null>('/auth/password/change', oldPassword === null ? { newPassword } : { oldPassword, newPassword });
}

export function getMe(signal?: AbortSignal): Promise<Me> {
  return apiGet<Me>('/me', { signal });
}

export interface ProfileInput {
  name: string;
  email: string;
  gender: number;
  birthday: string;
}

export function updateMe(profile: ProfileInput): Promise<Me> {
  return apiPatch<Me>('/me', profile);
}

export function closeAccount(): Promise<null> {
  return apiDelete<null>('/me');
}

export function decidePrivacy(decision: 'agree' | 'refuse'): Promise<PrivacyState> {
  return apiPost<PrivacyState>('/me/privacy', { decision });
}

export function updateMarketing(settings: MarketingSettings): Promise<MarketingState> {
  return apiPatch<MarketingState>('/me/marketing', settings);
}

/** An agreement's text (getProtocol), in the app's language; cached 5 minutes (spec account §9). */
export function getProtocol(code: 'privacyprotocol' | 'useragreement', signal?: AbortSignal): Promise<Protocol> {
  return apiGet<Protocol>('/system/protocol', { signal, query: { code }, cacheMs: 5 * 60_000 });
}
