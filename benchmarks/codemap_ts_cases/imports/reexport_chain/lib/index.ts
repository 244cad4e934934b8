export * from "./impl";
export { format as show } from "./other";
