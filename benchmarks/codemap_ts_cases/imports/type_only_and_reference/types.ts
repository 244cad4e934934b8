export interface Point {
  x: number;
}
