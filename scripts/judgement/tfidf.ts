/**
 * TF-IDF vectors and cosine similarity of short texts, with scikit-learn's defaults
 * (`TfidfVectorizer()`: lowercase, `token_pattern=r"(?u)\b\w\w+\b"`, `smooth_idf=True`, `norm="l2"`):
 * - tokens: the text lower-cased, then every run of two or more word characters (letters, digits and
 *   `_` in any script; a one-character run is dropped);
 * - tf(t, d) = the raw count of t in d;
 * - idf(t) = ln((1 + n) / (1 + df(t))) + 1, n the number of texts, df(t) how many of them contain t;
 * - each vector tf·idf divided by its Euclidean norm (a text without tokens stays the zero vector);
 * - similarity = cosine = the dot product of the normalised vectors, in [0, 1]; 0 to and from an
 *   empty text.
 * The vocabulary is the texts' own: vectors are comparable only within one call (one proposal's items).
 */

const TOKEN = /[\p{L}\p{N}_]{2,}/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** A sparse vector: term indices in ascending order and their weights. */
export interface SparseVector {
  terms: Int32Array;
  weights: Float64Array;
}

/** The L2-normalised TF-IDF vector of each text, over the texts' own vocabulary. */
export function tfidfVectors(texts: readonly string[]): SparseVector[] {
  const vocabulary = new Map<string, number>();
  const counts = texts.map((text) => {
    const tf = new Map<number, number>();
    for (const token of tokenize(text)) {
      let term = vocabulary.get(token);
      if (term === undefined) vocabulary.set(token, (term = vocabulary.size));
      tf.set(term, (tf.get(term) ?? 0) + 1);
    }
    return tf;
  });
  const df = new Float64Array(vocabulary.size);
  for (const tf of counts) for (const term of tf.keys()) df[term]++;
  const n = texts.length;
  const idf = Float64Array.from(df, (d) => Math.log((1 + n) / (1 + d)) + 1);
  return counts.map((tf) => {
    const terms = Int32Array.from([...tf.keys()].sort((a, b) => a - b));
    const weights = Float64Array.from(terms, (t) => tf.get(t)! * idf[t]);
    let norm = 0;
    for (const w of weights) norm += w * w;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let k = 0; k < weights.length; k++) weights[k] /= norm;
    return { terms, weights };
  });
}

/** Dot product of two sparse vectors (their cosine when both are normalised). */
export function dot(a: SparseVector, b: SparseVector): number {
  let s = 0;
  for (let i = 0, j = 0; i < a.terms.length && j < b.terms.length;) {
    if (a.terms[i] === b.terms[j]) s += a.weights[i++] * b.weights[j++];
    else if (a.terms[i] < b.terms[j]) i++;
    else j++;
  }
  return s;
}

/** The symmetric matrix of cosine similarities of the texts' TF-IDF vectors (row-major, n × n). */
export function cosineSimilarities(texts: readonly string[]): Float64Array {
  const vectors = tfidfVectors(texts);
  const n = texts.length;
  const matrix = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    matrix[i * n + i] = vectors[i].terms.length ? 1 : 0;
    for (let j = i + 1; j < n; j++) matrix[i * n + j] = matrix[j * n + i] = dot(vectors[i], vectors[j]);
  }
  return matrix;
}
