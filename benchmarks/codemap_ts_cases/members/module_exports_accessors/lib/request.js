module.exports = {
  get header() {
    return this.req.headers;
  },
  set header(value) {
    this.req.headers = value;
  },
  get host() {
    return this.get("host");
  },
  get(field) {
    return this.header[field];
  },
};
