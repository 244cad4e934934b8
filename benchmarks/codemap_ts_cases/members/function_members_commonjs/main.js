const items = require("./controller.js");

items.create({ title: "a" });
items.findOne({ id: 1 });
