function query(text) {
  return text.length;
}

const Item = function (item) {
  this.title = item.title;
};

Item.create = (newItem) => {
  return query("INSERT " + newItem.title);
};

Item.findById = function (id) {
  return query("SELECT " + id);
};

module.exports = Item;
