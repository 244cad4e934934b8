import asyncio


async def load_user():
    return "user"


async def load_orders():
    return ["order"]


async def page():
    return await asyncio.gather(load_user(), load_orders())


asyncio.run(page())
