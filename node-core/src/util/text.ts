// Bounding text that a result repeats from its input (a pattern, a command, an id, a string that
// was not found), so no input makes a result grow with it.

/** Cuts `text` to `max` UTF-16 units without splitting a surrogate pair. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}

/** `text` as given when short, else its first `max` characters and how many more there were. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutChars(text, max);
  return `${kept}... [${text.length - kept.length} more characters]`;
}
