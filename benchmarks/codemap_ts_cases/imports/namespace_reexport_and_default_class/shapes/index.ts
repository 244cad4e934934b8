export * as circle from "./circle";
export { default as Circle } from "./circle";
