import asyncio


def blocking():
    return 1


async def serve():
    return await asyncio.to_thread(blocking)


asyncio.run(serve())
