import asyncio, tempfile
from pathlib import Path
from tests.cogs.driver import Driver, play_speakeasy, table, channel_texts
from tests.fakediscord import payloads as p

async def main():
    with tempfile.TemporaryDirectory() as tmp:
        async with table(Path(tmp)) as (server, bot, clock):
            d = Driver(server, bot, clock, [p.ANNA])
            await d.open_and_start(game="speakeasy")
            await play_speakeasy(d, until=lambda t: t.version > 80)
            for text in channel_texts(server, d.where):
                print("=====\n" + text[:300])
asyncio.run(main())
