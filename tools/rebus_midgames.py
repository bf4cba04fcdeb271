#!/usr/bin/env python3
"""Makes src/bench/rebus_midgames.txt: the position at plies 40 and 80 of
medium-vs-medium REBUS games (limit nodes 4000, seed = deal) from the random
deals 101..110. Usage: tools/rebus_midgames.py target/release/tessera"""
import subprocess
import sys

BIN = sys.argv[1]


def main():
    print("# REBUS mid-game sample: positions at plies 40 and 80 of medium-vs-medium games")
    print("# (limit nodes 4000, setoption seed = deal) from setup random 101..110, made by")
    print("# tools/rebus_midgames.py. One position string (rules.md §2.9) per line.")
    for seed in range(101, 111):
        p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)

        def cmd(c):
            p.stdin.write(c + "\n")
            p.stdin.flush()
            lines = []
            while True:
                line = p.stdout.readline()
                if not line:
                    raise SystemExit(f"engine ended after {c!r}")
                if line.strip() == "":
                    if lines:
                        return lines
                    continue
                lines.append(line.rstrip("\n"))

        for c in ["game rebus", f"setup random {seed}", "level medium", "limit nodes 4000",
                  f"setoption seed {seed}"]:
            cmd(c)
        side = "r"
        for ply in range(1, 81):
            if "ongoing" not in cmd("game_status")[0]:
                break
            cmd(f"genmove {side}")
            side = "b" if side == "r" else "r"
            if ply in (40, 80):
                print(cmd("position")[0][2:])
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()


main()
