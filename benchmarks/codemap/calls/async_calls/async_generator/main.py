import asyncio


def parse(line):
    return line.upper()


async def lines():
    for raw in ["a", "b"]:
        yield parse(raw)


async def consume():
    return [item async for item in lines()]


asyncio.run(consume())
