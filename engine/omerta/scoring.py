"""Scoring a round of Omerta (seed 002:46-56, decisions "OMERTA and scoring")."""

from __future__ import annotations


def score_round(points: list[int], caller: int | None, limit: int, penalty: int) -> tuple[list[int], bool]:
    """Each seat's score for the round and whether the caller made it.

    * The caller has ``limit`` (7) or fewer points and nobody has fewer: the caller scores 0, everyone
      else their points (002:52.1-53.1; a tie with the caller is not "fewer").
    * Otherwise the caller scores their points + ``penalty`` (20) and the player(s) with the fewest points
      among the others score 0 (002:54.1); everyone else scores their points (002:55.1).
    * No caller (the draw pile ran dry): everyone scores their points (decisions file).
    """
    if caller is None:
        return list(points), False
    others = [p for i, p in enumerate(points) if i != caller]
    if points[caller] <= limit and all(p >= points[caller] for p in others):
        return [0 if i == caller else p for i, p in enumerate(points)], True
    fewest = min(others) if others else None
    scores = []
    for i, p in enumerate(points):
        if i == caller:
            scores.append(p + penalty)
        elif p == fewest:
            scores.append(0)
        else:
            scores.append(p)
    return scores, False
