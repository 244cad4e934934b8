// A function of the repository named like React's hook: it does not call what it is given.
export function useEffect(f) {
  return f === undefined;
}
