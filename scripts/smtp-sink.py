#!/usr/bin/env python3
"""A real SMTP server on loopback for the test suite (aiosmtpd), keeping every accepted message as a
file. It prints "PORT <n>" once it listens, and stops when its standard input closes (the test that
started it ended, however it ended).

Recipients steer it, so one server can play every part a test needs:
  name+drop@...   the first message to this address is read whole, then the connection is dropped
                  without an answer (the client cannot know whether it arrived; nothing is kept)
  name+busy@...   the first RCPT for this address gets 451 (try again later)
  name+gone@...   every RCPT gets 550 (no such mailbox)
"""
import argparse
import asyncio
import os
import sys

from aiosmtpd.smtp import SMTP


class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0
        self.seen = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@")[0]
        if local.endswith("+gone"):
            return "550 5.1.1 No such mailbox"
        if local.endswith("+busy") and ("busy", address) not in self.seen:
            self.seen.add(("busy", address))
            return "451 4.3.0 Busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        for address in envelope.rcpt_tos:
            if address.split("@")[0].endswith("+drop") and ("drop", address) not in self.seen:
                self.seen.add(("drop", address))
                server.transport.abort()
                return "250 never seen"
        self.count += 1
        name = os.path.join(self.folder, "%04d.eml" % self.count)
        with open(name + ".part", "wb") as out:
            out.write(("X-Envelope-From: %s\r\nX-Envelope-To: %s\r\n" % (envelope.mail_from, ",".join(envelope.rcpt_tos))).encode())
            out.write(envelope.original_content)
        os.rename(name + ".part", name)
        return "250 2.0.0 Accepted"


async def serve(folder):
    loop = asyncio.get_running_loop()
    sink = Sink(folder)
    server = await loop.create_server(lambda: SMTP(sink, hostname="sink.test"), "127.0.0.1", 0)
    print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    asyncio.run(serve(args.dir))


if __name__ == "__main__":
    main()
