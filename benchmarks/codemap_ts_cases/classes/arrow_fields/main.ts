export class Button {
  label = "ok";
  onClick = () => {
    return this.render();
  };
  render() {
    return this.label;
  }
}
