function real() {
  return "real";
}
export function Model() {}
Model.find = real;
Model.stay = real;
