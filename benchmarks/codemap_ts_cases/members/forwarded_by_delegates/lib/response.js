module.exports = {
  get body() {
    return this._body;
  },
  set body(value) {
    this._body = value;
  },
  redirect(url) {
    this.body = "to " + url;
  },
};
