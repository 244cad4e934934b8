var proto = (module.exports = {});

proto.init = function init() {
  this.settings = {};
};

proto.use = function use(fn) {
  return fn;
};
