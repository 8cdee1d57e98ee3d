/**
 * Spec account §5: "Menu notice marks are kept per user per session." The mark lives in session
 * storage (a new session shows the notice again) under a key naming the user, so a visitor who
 * logs in, or another user on the same tab, is shown the store's notice once more.
 */

/** The user a mark belongs to: a logged-in user's id, or the visitor. */
export function noticeViewer(userId: number | null | undefined): string {
  return userId === null || userId === undefined ? 'visitor' : `user:${userId}`;
}

/** The session-storage key that says `viewer` has seen the notice of `storeCode`. */
export function noticeMark(viewer: string, storeCode: string): string {
  return `notice:${viewer}:${storeCode}`;
}
