import asyncio


class Session:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False


class Ticks:
    def __aiter__(self):
        self.n = 0
        return self

    async def __anext__(self):
        if self.n == 2:
            raise StopAsyncIteration
        self.n += 1
        return self.n


async def serve():
    async with Session():
        return [n async for n in Ticks()]


asyncio.run(serve())
