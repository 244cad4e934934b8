const Item = require("./model.js");

exports.create = (req) => {
  const item = new Item({ title: req.title });
  return Item.create(item);
};

exports.findOne = (req) => Item.findById(req.id);
