from concurrent.futures import ThreadPoolExecutor


def fetch(url):
    return url


def run():
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fetch, "a").result()


run()
