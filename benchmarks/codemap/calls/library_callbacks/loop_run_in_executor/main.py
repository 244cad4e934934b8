import asyncio


def compute(x):
    return x + 1


async def serve():
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, compute, 1)


asyncio.run(serve())
