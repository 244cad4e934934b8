export async function run(name: string) {
  const m = await import("./lazy");
  m.heavy();
  await import(name);
}
