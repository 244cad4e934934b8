import { Component } from "react";
import { ArticleList } from "./List";

function choose() {}

class Tabs extends Component {
  render() {
    return <div />;
  }
}

export function Home() {
  return (
    <main>
      <ArticleList onPick={choose} />
      <Tabs />
    </main>
  );
}
