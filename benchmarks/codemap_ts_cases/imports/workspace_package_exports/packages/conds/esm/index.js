export function fromEsm() { return 2; }
