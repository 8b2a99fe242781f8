/**
 * Approximates `JSON.stringify(value).length` without building the string: string lengths plus quotes, keys,
 * separators and a short width for numbers. Escapes are not counted, so it slightly under-counts text with
 * many quotes or newlines; it feeds a characters/4 token estimate, where that error does not matter.
 */
export function approximateJsonLength(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 3;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let length = 2;
        for (let index = 0; index < value.length; index++) length += approximateJsonLength(value[index]) + 1;
        return length;
      }
      // `typeof` narrows to `object` only; a parsed JSON object is a string-keyed record.
      const record = value as Record<string, unknown>;
      let length = 2;
      for (const key in record) length += key.length + 4 + approximateJsonLength(record[key]);
      return length;
    }
    default:
      return 0;
  }
}
