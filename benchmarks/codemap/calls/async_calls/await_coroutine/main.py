import asyncio


async def fetch(n):
    await asyncio.sleep(0)
    return n


async def handler():
    return await fetch(1)


asyncio.run(handler())
