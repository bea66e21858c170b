/** Escapes text for HTML element content and attribute values. */
export function esc(s: string | number | undefined): string {
  return String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
