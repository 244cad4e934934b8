export default function greet() {
  return "hi";
}
