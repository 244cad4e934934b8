import { load } from "~/api";
export function Page() {
  load();
  return <div />;
}
