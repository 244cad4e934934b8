export function ArticleList({ onPick }: { onPick: () => void }) {
  onPick();
  return <ul />;
}
