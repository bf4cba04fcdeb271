#!/usr/bin/env python3
"""An independent check of the solver's pairing strategies (docs/solved.md).

Given a Rekushu position reached by placements without claims, finds for each
side (the attacker) whether the other side has a pairing strategy against it:
disjoint pairs of empty vertices, no pair two mirror images of each other
(rules.md §1.5), such that every rectangle the attacker could still claim one day
has both vertices of some pair among its corners. Written from docs/rules.md alone,
sharing no code with src/games/rekushu/solve.rs; exhaustive (no budget).

    python3 tools/pairing_check.py 5 "C2 B3 C4 D3"
"""
import itertools
import sys


def vertex(text):
    return (ord(text[0].upper()) - ord("A"), int(text[1:]) - 1)


def name(v):
    return chr(ord("A") + v[0]) + str(v[1] + 1)


def pairing(n, moves, attacker):
    """A pairing against `attacker` (0 Black, 1 White) as {vertex: partner},
    or None; and what was found: how many rectangles the attacker could still
    claim, or one it is a placement away from claiming (then no pairing)."""
    stones = {0: set(), 1: set()}
    for i, text in enumerate(moves):
        stones[i % 2].add(vertex(text))
    occupied = stones[0] | stones[1]
    sets = []
    for x1, x2 in itertools.combinations(range(n), 2):
        for y1, y2 in itertools.combinations(range(n), 2):
            corners = {(x1, y1), (x2, y1), (x1, y2), (x2, y2)}
            inside = {(x, y) for x in range(x1, x2 + 1) for y in range(y1, y2 + 1)}
            if (inside - corners) & occupied or corners & stones[1 - attacker]:
                continue
            free = corners - occupied
            if len(free) < 2:
                return None, f"{name((x1, y1))}-{name((x2, y2))} has {len(free)} free corner(s)"
            sets.append(frozenset(free))
    sets.sort(key=len)

    def mirror(a, b):
        (x, y), m = a, n - 1
        return b in {(x, m - y), (m - x, y), (m - x, m - y)}

    def cover(i, partner):
        while i < len(sets) and any(
            p in sets[i] and partner[p] in sets[i] for p in partner
        ):
            i += 1
        if i == len(sets):
            return dict(partner)
        for a, b in itertools.combinations(sorted(sets[i] - set(partner)), 2):
            if mirror(a, b):
                continue
            partner[a], partner[b] = b, a
            found = cover(i + 1, partner)
            if found:
                return found
            del partner[a], partner[b]
        return None

    return cover(0, {}), f"{len(sets)} rectangles open"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, moves = int(sys.argv[1]), sys.argv[2].split()
    for attacker, side in [(0, "Black"), (1, "White")]:
        found, what = pairing(n, moves, attacker)
        if found:
            pairs = sorted({tuple(sorted((name(a), name(b)))) for a, b in found.items()})
            print(f"attacker {side}: {what}; pairing {' '.join('-'.join(p) for p in pairs)}")
        else:
            print(f"attacker {side}: no pairing ({what})")


if __name__ == "__main__":
    main()
