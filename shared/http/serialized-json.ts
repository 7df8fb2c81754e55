/**
 * A JSON value already serialized: an operation answers it (alone or `withHeaders`) to have its
 * text sent as it is, for views serialized once and sent many times.
 */
export class SerializedJson {
  constructor(readonly text: string) {}
}

/** The JSON array of elements serialized one by one: the very text `JSON.stringify` gives the array. */
export function serializedArray(elements: readonly string[]): SerializedJson {
  return new SerializedJson(`[${elements.join(',')}]`);
}
