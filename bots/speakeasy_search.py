"""Hard's search: information-set Monte Carlo tree search from one seat (SO-ISMCTS) with progressive widening.

One tree is grown for the decision. Each iteration plays on a sampled world (``speakeasy_worlds.world``: what
the seat cannot see drawn from its beliefs; see common worlds below), walks down the tree through the choices of
every seat (each seat picks by its own reward: the rivals are searched too, not assumed to play the easy way),
adds one choice, plays on with the preparing easy policy until the Act ends or ``PLAYOUT_DEPTH`` choices have
been made, and backs every seat's margin up the path it took.

- A node is an information set: the choices made since the root, and the question then asked (who, what). The
  same path can ask different things in different worlds (a card drawn from a deck the seat cannot see), so an
  edge keeps a child per question. An option that is not legal in a world is not offered there; each edge counts
  the visits in which it was offered (``avail``) and its exploration is measured against that (SO-ISMCTS).
- **Every option is reached.** A node admits its options one at a time in a fixed order, ``WIDEN_BASE`` plus the
  square root of its visits: the root in the order of standard's lookahead, which also gives each root option a
  prior of ``PRIOR_VISITS`` visits at its lookahead margin (so a short search plays standard's choice and a long
  one overrules it); a deeper node in the easy policy's order, read the first time it is visited.
- **Common worlds.** At most ``WORLDS`` worlds are sampled a decision, and a root option's k-th playout plays on
  world k mod ``WORLDS``: every option meets the same worlds in the same order, so a world's luck cancels out
  between options instead of hiding their difference.
- The answer is the root option visited most (ties: the better mean, then the lookahead's order).

Everything is a function of the seat's view and the bot's generator, so two positions the seat cannot tell apart
get the same search (the fair-play tests). The node limit counts choices applied or tried, as the playouts do.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from bots.speakeasy_policy import (
    GAME,
    Judge,
    easy_step,
    legal_ids,
    margins,
    next_question,
    try_choice,
    value,
    worth_trying,
)
from bots.speakeasy_worlds import copy, world
from bots.speakeasy_worth import Prepare
from engine.core import TABLE, Choice, Option, Prompt
from engine.speakeasy.state import SpeakeasyState

#: A node admits ``WIDEN_BASE + isqrt(visits)`` options (progressive widening: every option in time).
WIDEN_BASE = 2
#: Visits the root's lookahead margin counts for: standard's judgement as a prior the playouts must overrule.
PRIOR_VISITS = 2
#: UCB's exploration, in units of the spread of the root's rewards so far (at least ``SPREAD_FLOOR`` dollars).
EXPLORE = 0.3
SPREAD_FLOOR = 5.0
#: How far a playout goes after the tree: to the end of the Act, at most this many choices.
PLAYOUT_DEPTH = 60
#: The search stops when this many iterations of the mean length so far would pass the clock.
ITERATION_MARGIN = 2.0
#: Worlds sampled per decision; iteration k plays on world k mod WORLDS, so the options are compared on the same
#: worlds (common random numbers: a world's luck cancels out between options instead of hiding their difference).
WORLDS = 8


@dataclass
class Edge:
    """One option of a node: its visits, the visits it was offered in, and its seat's summed reward."""

    visits: int = 0
    avail: int = 0
    total: float = 0.0
    children: dict[tuple[int, str], Node] = field(default_factory=dict)

    def mean(self) -> float:
        """The average reward (0 before a visit)."""
        return self.total / self.visits if self.visits else 0.0


@dataclass
class Node:
    """An information set: the option ids in the order widening admits them, and their edges."""

    order: list[str]
    edges: dict[str, Edge] = field(default_factory=dict)
    visits: int = 0

    def admitted(self, offered: list[str]) -> list[str]:
        """The options this visit may choose among: the first ``WIDEN_BASE + isqrt(visits)`` of the order that
        are offered in this world (an option first seen here joins the order's end)."""
        known = set(self.order)
        self.order.extend(i for i in offered if i not in known)
        here = set(offered)
        width = WIDEN_BASE + math.isqrt(self.visits)
        return [i for i in self.order if i in here][:width]


@dataclass
class Outcome:
    """The search's answer: the root option, its mean reward, iterations run and nodes used."""

    option: Option
    expected: float
    iterations: int
    nodes: int


class Search:
    """One decision's tree. ``prep``: the preparing worth the rewards are measured with; ``judge``: how a leaf is
    scored for every seat (``margins`` unless given)."""

    def __init__(self, prep: Prepare | None, rng: random.Random, judge: Judge = margins) -> None:
        self.prep = prep
        self.rng = rng
        self.judge = judge
        self.nodes = 0
        self.root: Node | None = None  # the last run's tree (kept for tests)
        # the root's rewards, for the exploration's scale (Welford's running variance)
        self._n = 0
        self._mean = 0.0
        self._m2 = 0.0

    def run(
        self,
        state: SpeakeasyState,
        prompt: Prompt,
        ranked: list[tuple[float, Option]],
        nodes: int,
        deadline: float,
    ) -> Outcome:
        """Search from the real ``state`` (read only through sampled worlds) for ``prompt``'s seat; ``ranked``
        is standard's lookahead (margin, option), best first: the root's order and prior. It stops when ``nodes``
        are used or, after its first iteration, when ``ITERATION_MARGIN`` iterations of the mean length so far
        would pass ``deadline`` (a ``time.perf_counter`` time): iterations differ in length (a playout's menus),
        so a margin keeps the decision within the clock when the next one is longer than the mean."""
        seat = prompt.seat
        root = Node([o.id for _v, o in ranked])
        for v, o in ranked:
            root.edges[o.id] = Edge(visits=PRIOR_VISITS, avail=PRIOR_VISITS, total=PRIOR_VISITS * v)
        root.visits = PRIOR_VISITS
        self.root = root
        start = time.perf_counter()
        iterations = 0
        worlds: list[SpeakeasyState] = []
        while self.nodes < nodes:
            if iterations:
                now = time.perf_counter()
                if now + ITERATION_MARGIN * (now - start) / iterations > deadline:
                    break
            # the root's options are the prompt's, the same in every world: chosen first, then the world by how
            # often that option was played, so every option meets worlds 0, 1, 2, ... in the same order
            first = self._select(root, root.order)
            k = (root.edges[first].visits - PRIOR_VISITS) % WORLDS
            while len(worlds) <= k:
                worlds.append(world(state, seat, self.rng))
            self._iterate(copy(worlds[k]), root, first, (seat, prompt.kind), seat)
            iterations += 1
        by_id = {o.id: o for _v, o in ranked}
        rank = {o.id: k for k, (_v, o) in enumerate(ranked)}
        best = max(root.edges, key=lambda i: (root.edges[i].visits, root.edges[i].mean(), -rank[i]))
        return Outcome(by_id[best], root.edges[best].mean(), iterations, self.nodes)

    def _iterate(self, w: SpeakeasyState, root: Node, first: str, asked: tuple[int, str], seat: int) -> None:
        """One iteration on the world ``w`` (spent) from the root option ``first``: select and expand down the
        tree, play out, back up."""
        path: list[tuple[Node, Edge, int]] = []
        node = root
        who, kind = asked
        legal: frozenset[str] | None = legal_ids(w, who, kind)
        offered: list[str] = []
        choice_id = first
        while True:
            if path:
                choice_id = self._select(node, offered)
            edge = node.edges[choice_id]
            try_choice(w, Choice(who, kind, choice_id), legal)
            self.nodes += 1
            path.append((node, edge, who))
            if edge.visits == 0:
                break  # a new edge: expanded, now played out
            nxt = self._advance(w)
            if nxt is None:
                break
            who, kind, options = nxt
            child = edge.children.get((who, kind))
            if child is None:
                child = edge.children[(who, kind)] = Node(self._easy_order(w, who, kind, options))
            node, legal = child, None  # the world's own question: its options are legal as offered
            offered = [o.id for o in worth_trying(options)]
        w = self._playout(w)
        rewards = self.judge(w, self.prep)
        for n, e, s in path:
            n.visits += 1
            e.visits += 1
            e.total += rewards[s]
        self._observe(rewards[seat])

    def _select(self, node: Node, offered: list[str]) -> str:
        """The option to follow: a new admitted one first (in order), else the best upper bound (UCB1 with
        availability counts)."""
        admitted = node.admitted(offered)
        for i in admitted:
            edge = node.edges.get(i)
            if edge is None:
                edge = node.edges[i] = Edge()
            edge.avail += 1
        for i in admitted:
            if node.edges[i].visits == 0:
                return i
        c = EXPLORE * self._spread()

        def bound(i: str) -> float:
            e = node.edges[i]
            return e.mean() + c * math.sqrt(math.log(e.avail) / e.visits)

        return max(admitted, key=bound)  # ties keep the earlier option: deterministic

    def _advance(self, w: SpeakeasyState) -> tuple[int, str, list] | None:
        """The next question a seat is asked, the table's own steps (timers) taken by their defaults."""
        while True:
            nxt = next_question(w)
            if nxt is None or nxt[0] != TABLE:
                return nxt
            self._table_step(w, nxt[1])

    def _easy_order(self, w: SpeakeasyState, who: int, kind: str, options: list) -> list[str]:
        """A new node's order: its options by the worth each leaves its seat after one step (the easy policy's
        judgement, with the preparing worth), best first, ties in the offered order."""
        tried = worth_trying(options)
        if len(tried) == 1:
            return [tried[0].id]
        scored = []
        for k, option in enumerate(tried):
            trial = copy(w)
            GAME.apply_offered(trial, Choice(who, kind, option.id))
            scored.append((value(trial, who, self.prep), -k, option.id))
        self.nodes += len(tried)
        scored.sort(reverse=True)
        return [i for _v, _k, i in scored]

    def _playout(self, w: SpeakeasyState) -> SpeakeasyState:
        """``w`` played on by the preparing easy policy for every seat, to the end of the Act or
        ``PLAYOUT_DEPTH`` choices (``w`` is spent; the position reached is returned)."""
        act = w.act
        for _ in range(PLAYOUT_DEPTH):
            if w.act != act:
                break
            nxt = next_question(w)
            if nxt is None:
                break
            who, kind, options = nxt
            if who == TABLE:
                self._table_step(w, kind)
            else:
                w = easy_step(w, who, kind, options, prep=self.prep)
                self.nodes += len(options) + 1
        return w

    def _table_step(self, w: SpeakeasyState, kind: str) -> None:
        """The table's own step (a timer) taken by its default, one node."""
        GAME.apply_offered(w, Choice(TABLE, kind, GAME.prompts(w)[0].default_option()))
        self.nodes += 1

    def _observe(self, reward: float) -> None:
        self._n += 1
        delta = reward - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (reward - self._mean)

    def _spread(self) -> float:
        """The root rewards' standard deviation so far (at least ``SPREAD_FLOOR``)."""
        if self._n < 2:
            return SPREAD_FLOOR
        return max(SPREAD_FLOOR, math.sqrt(self._m2 / (self._n - 1)))
