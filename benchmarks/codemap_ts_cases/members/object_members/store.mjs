function read(key) {
  return key;
}
const store = {};
store.get = function (key) {
  return read(key);
};
store.put = (key) => store.get(key);
export default store;
