import asyncio


def hello(request):
    return "hello " + request


async def goodbye(request):
    return "goodbye " + request


class Transport:
    def __init__(self, handler):
        self.handler = handler

    def send(self, request):
        return self.handler(request)  # unresolved

    async def send_async(self, request):
        return await self.handler(request)  # unresolved


Transport(hello).send("a")
asyncio.run(Transport(goodbye).send_async("b"))
