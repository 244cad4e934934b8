class Page {
  render() {
    return this.tabs();
  }

  tabs() {
    return "page";
  }
}

class Home extends Page {
  tabs() {
    return "home";
  }
}

new Page().render();
new Home().render();
