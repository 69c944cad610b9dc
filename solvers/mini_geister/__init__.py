"""Mini-Geister solved exactly: the colourless ("purple") analysis of Tanaka & Takaoka and its perfect-information
twin, on the generic retrograde engine (``solvers.retrograde``).

The paper (``seeds/000``, summarised in ``spec/rules.md`` section 2) builds a strategy that guarantees an average
payoff >= 0 by never looking at one's own colours until the game ends. Whether it works from a placement is a
two-player reachability question over *colourless* placements: can the analysed side force one of the average-0
events (an escape attempt, a random capture, a guess) in finitely many plies, or can the opponent force one of its
pieces onto its exit first? The same machinery answers it for:

* the 2-vs-2 game under the paper's base rule and its extended rule (section 4, which needs the
  perfect-information table: every colour assignment known),
* the 3-vs-2 analyses of section 6, which differ only in the pieces on each side, the payoff the analysed side aims
  for, and which terminal events are allowed. Every event's average payoff is *computed* from the piece counts (an
  escape attempt with 2 blue and 1 red unseen pieces averages 1/3; a random capture among k pieces averages over the
  opponent's worst colouring), so a rule switches on exactly where the paper's argument holds.

The modules, one concept each:

* ``model``: the board in the analysis frame, armies of known and purple pieces, and an analysis's specification;
* ``tables``: building, caching and handing out the solved tables (successors and terminal events, vectorised);
* ``analysis``: what the tables say about a position (values, each move's result, the Nash strategy's moves,
  solved lines, perfect-information values);
* ``three_vs_two``: the paper's section 6;
* ``players``: the Nash player, the mirror player and the table adversary.

States are indexed combinatorially (``solvers.retrograde.Layout``); successors, the predecessor index and every
terminal rule are computed with array operations; the only Python loops run over sweeps, pieces, directions and
the (at most 3) opponent pieces of a capture rule, never over states.
"""
