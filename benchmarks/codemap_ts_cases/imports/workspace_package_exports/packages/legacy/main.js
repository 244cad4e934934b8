export function old() { return 4; }
