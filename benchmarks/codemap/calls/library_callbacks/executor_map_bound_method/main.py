from concurrent.futures import ThreadPoolExecutor


class Resizer:
    def resize(self, size):
        return size // 2


def run():
    resizer = Resizer()
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(resizer.resize, [4, 8]))


run()
