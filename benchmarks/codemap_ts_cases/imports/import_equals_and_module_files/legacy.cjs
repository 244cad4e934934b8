module.exports = function legacy() {
  return 1;
};
