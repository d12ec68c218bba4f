// The header that carries the certifier's nonce, in a module of its own with
// no imports: the k6 scripts (load/k6, type-checked without Node) send it too.
/** The request header that carries the certifier's nonce on every exchange of the run. */
export const NONCE_HEADER = 'ptas-nonce';
