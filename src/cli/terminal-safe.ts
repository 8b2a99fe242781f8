/**
 * Characters a terminal acts on instead of printing: C0 controls (ESC starts every escape sequence), DEL, C1
 * controls (U+009B is a one-byte CSI on some terminals) and the bidirectional overrides that reorder what is
 * shown. Client-controlled text (session ids, `user`, model names, titles) reaches the CLI's reports through
 * the ledger; printed raw, it could clear the screen, retitle the terminal, write the clipboard (OSC 52) or
 * hide text.
 */
const cellControls = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, but newline and tab keep their meaning (whole lines of output, not one cell). */
const outputControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/**
 * The colour sequences our own tables write (picocolors: bold, dim, reset and the 16 foreground colours). Any
 * other sequence, a hostile colour included, is escaped; a hostile colour would at worst colour text, but
 * conceal (`8`) or blink would not be allowed through.
 */
const ownColour = /\u001b\[(?:0|1|2|22|39|3[0-7]|9[0-7])m/y;

function escaped(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * The one escaping function of the CLI: every control character as a visible `\u001b`-style escape. The form
 * is also a valid JSON escape, so escaping JSON output keeps it valid and its values unchanged once parsed.
 */
export function terminalSafe(text: string): string {
  return text.replace(cellControls, escaped);
}

/**
 * For whole output (every write of a command): newlines and tabs stay, our own colours stay, anything else is
 * escaped as by `terminalSafe`.
 */
export function terminalSafeOutput(text: string): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    ownColour.lastIndex = index;
    const colour = ownColour.exec(text);
    if (colour) {
      result += colour[0];
      index += colour[0].length;
      continue;
    }
    const next = text.indexOf('\u001b', index + 1);
    const end = next === -1 ? text.length : next;
    result += text.slice(index, end).replace(outputControls, escaped);
    index = end;
  }
  return result;
}

/**
 * `stream` with every write passed through `terminalSafeOutput`; everything else (isTTY, events, end) is the
 * stream's own. Commands receive these, so no command can print a raw control character.
 */
export function terminalSafeStream<Stream extends NodeJS.WritableStream>(stream: Stream): Stream {
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') {
        return (chunk: unknown, ...rest: unknown[]) => {
          const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
          return (target.write as (...args: unknown[]) => boolean).call(target, terminalSafeOutput(text), ...rest);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
