#!/usr/bin/env python3
"""Writes API paths of positions reachable from a game's start, found by random walks through a
running `perfectplay serve`, one per line: the request mix for bench/random-positions.lua.

    python3 bench/positions.py http://127.0.0.1:8080 fivefieldkono regular 5000 > /tmp/paths.txt
"""
import json
import random
import sys
import urllib.parse
import urllib.request


def main():
    base, game, variant, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    prefix = f"/api/{game}/{variant}/positions/?p="
    random.seed(7)
    paths = set()
    while len(paths) < count:
        p = "start"
        for _ in range(random.randint(1, 60)):
            with urllib.request.urlopen(base + prefix + urllib.parse.quote(p)) as r:
                moves = json.load(r)["moves"]
            if not moves:
                break
            p = random.choice(moves)["position"]
            paths.add(prefix + urllib.parse.quote(p))
    print("\n".join(sorted(paths)))


if __name__ == "__main__":
    main()
