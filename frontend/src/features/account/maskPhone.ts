/** "138****5678": first three and last four shown (the server sends it masked already). */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  if (phone.includes('*')) return phone;
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
