exports.h = function () {
  return 3;
};
