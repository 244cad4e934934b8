export function sweet() { return 1; }
