/** NFKC folds full-width Latin and punctuation (common in Chinese input) onto their ASCII forms. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019\u201b]/g, "'").replace(/[\u201c\u201d\u201e]/g, '"');
}

/** Ideographs, kana and Thai: scripts written without spaces, featurised by character n-grams instead of words. */
export const unspacedCharacter = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
