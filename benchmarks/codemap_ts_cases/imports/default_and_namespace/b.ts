export function shout() {
  return "HI";
}
export const quiet = () => "hi";
