import asyncio


class Client:
    async def get(self, path):
        return await self._send("GET", path)

    async def _send(self, method, path):
        return method + " " + path


async def main_task():
    client = Client()
    return await client.get("/items")


asyncio.run(main_task())
