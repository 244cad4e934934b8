module.exports = {
  get host() {
    return this.req.headers.host;
  },
  describe() {
    return "request to " + this.host;
  },
};
