/**
 * Renders an exchange's request as a curl command. Placeholders `${NAME}` left by the
 * redactor stay shell variables, so a reader exports the secret and replays the request.
 */
export function toCurl(
  req: { method: string; url: string; headers: Record<string, string>; body?: string | undefined },
  placeholders: ReadonlySet<string> = new Set(),
): string {
  const quote = (s: string): string => quoteFor(s, placeholders);
  const parts = ["curl", "-sS", "-i"];
  if (req.method !== "GET" || req.body !== undefined) parts.push("-X", req.method);
  parts.push(quote(req.url));
  for (const [k, v] of Object.entries(req.headers)) {
    if (k.toLowerCase() === "content-length" || k.toLowerCase() === "host") continue;
    parts.push("-H", quote(`${k}: ${v}`));
  }
  if (req.body !== undefined && req.body.length > 0) parts.push("--data-binary", quote(req.body));
  return parts.join(" ");
}

/** Double-quotes for the shell, escaping everything but the redactor's own `${NAME}` placeholders. */
function quoteFor(s: string, placeholders: ReadonlySet<string>): string {
  const escaped = s
    .replace(/[\\"`$]/g, (c) => `\\${c}`)
    .replace(/\\\$\{([A-Z0-9_]+)\}/g, (m, name: string) => (placeholders.has(name) ? `\${${name}}` : m));
  return `"${escaped}"`;
}
