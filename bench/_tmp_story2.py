import asyncio, tempfile, sys
from pathlib import Path
from tests.cogs.driver import Driver, play_speakeasy, table, channel_texts
from tests.fakediscord import payloads as p

async def main():
    with tempfile.TemporaryDirectory() as tmp:
        async with table(Path(tmp)) as (server, bot, clock):
            d = Driver(server, bot, clock, [p.ANNA, p.BEN])
            await d.open_and_start(game="speakeasy")
            def bens_turn(t):
                return t.version > 10 and any(pr.seat == 1 for pr in t.prompts())
            await play_speakeasy(d, until=bens_turn)
            n0 = len(channel_texts(server, d.where))
            rec = await server.slash(p.ANNA, "game botseat", {"player": p.BEN, "level": "easy"}, channel_id=d.where)
            await rec.wait_followups(1, timeout=60)
            await play_speakeasy(d, until=lambda t: t.version > 60)
            for text in channel_texts(server, d.where)[n0-1:n0+12]:
                print("=====\n" + text[:900])
asyncio.run(main())
