/**
 * A table keyed by operation name, built from a list of modules that each carry their `name`:
 * the type keeps each module's own type under its own name, so a table missing an operation, or
 * holding one twice under the wrong key, does not compile where it is declared as a mapped type.
 * Pure, like src/core.
 */
export type ByName<T extends readonly { name: string }[]> = { [E in T[number] as E['name']]: E };

export function byName<const T extends readonly { name: string }[]>(list: T): ByName<T> {
  return Object.fromEntries(list.map((entry) => [entry.name, entry])) as ByName<T>;
}
