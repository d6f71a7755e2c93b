/**
 * How a part of the message catalog is written: the English and the Persian side of one area,
 * side by side. The Persian side must have exactly the English side's keys, and each phrase the
 * same shape (text, or a function of the same parameters), so a missing or extra key in either
 * language fails the type check.
 * @see docs/architecture.md, "Languages"
 */

/** A phrase: fixed text, or text made from parameters (numbers and names already formatted or not). */
export type Phrase = string | ((...args: never[]) => string);

export type Phrases = { readonly [key: string]: Phrase };

/** The shape every language of an area must have: the English keys, texts as `string`. */
export type Shape<T extends Phrases> = { readonly [K in keyof T]: T[K] extends string ? string : T[K] };

export interface Area<T extends Phrases> {
  readonly en: Shape<T>;
  readonly fa: Shape<T>;
}

/** One area of the catalog: English first, then the Persian with the same keys and shapes. */
export function defineArea<T extends Phrases>(en: T, fa: NoInfer<Shape<T>>): Area<T> {
  // `T` is `Shape<T>` with narrower texts; the compiler cannot see that through the mapped type.
  return { en: en as Shape<T>, fa };
}
