// How a finished game went for one seat, from the result's ranks (1 is first, ties share a rank).

/**
 * One of "won", "draw" (everyone first), "shared" (first with others), "lost" (two players)
 * or "rank" (placed `rank` of `n`), with the rank and the number of players.
 */
export function outcome(ranks, seat) {
  const n = ranks.length;
  const rank = ranks[seat];
  const firsts = ranks.filter((r) => r === 1).length;
  let kind = "rank";
  if (rank === 1) kind = firsts === 1 ? "won" : firsts === n ? "draw" : "shared";
  else if (n === 2) kind = "lost";
  return { kind, rank, n };
}
