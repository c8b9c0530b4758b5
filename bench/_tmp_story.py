import asyncio, tempfile, re, sys
from pathlib import Path
from tests.cogs.driver import Driver, play_speakeasy, table, channel_texts, play_to_end
from tests.cogs.test_seat_bots import _open_with_bots
from tests.fakediscord import payloads as p

async def main(game):
    with tempfile.TemporaryDirectory() as tmp:
        async with table(Path(tmp)) as (server, bot, clock):
            d = Driver(server, bot, clock, [p.ANNA])
            await _open_with_bots(d, game, ["standard", "easy"] if game == "speakeasy" else ["standard", "easy"], "pace=live" if game=="omerta" else "")
            if game == "speakeasy":
                await play_speakeasy(d, until=lambda t: t.version > 120)
            else:
                await play_to_end(d)
            for text in channel_texts(server, d.where):
                print("=====\n" + text[:700])
asyncio.run(main(sys.argv[1]))
