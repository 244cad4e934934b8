exports.fromCjs = function () { return 3; };
