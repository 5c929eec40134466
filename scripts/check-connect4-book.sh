#!/usr/bin/env bash
# Checks the Connect Four opening book against Pascal Pons' solver: for every position of the
# book with at least MIN_PLY moves, `c4solver -a` scores every column, and the book's score
# must be the best of them and its column must have it.
#
#   scripts/check-connect4-book.sh /tmp/pons/c4solver [MIN_PLY] [BOOK]
#
# Build c4solver as ../shared/tools/pons/README.md says. Without Pons' own opening book its
# early positions take minutes each: MIN_PLY (default 4) skips the shallowest. Prints one line
# per position checked, then a summary; exits 1 if any position disagrees.
set -euo pipefail
pons=${1:?usage: check-connect4-book.sh C4SOLVER [MIN_PLY] [BOOK]}
min_ply=${2:-4}
book=${3:-"$(dirname "$0")/../crates/games-connect4/book/7x6.txt"}
grep -v '^#' "$book" | awk -v min="$min_ply" '$1 != "-" && length($1) >= min' > /tmp/book-check.$$
status=0
cut -d' ' -f1 /tmp/book-check.$$ | "$pons" -a 2>/dev/null |
  paste -d' ' /tmp/book-check.$$ - |
  awk '
    {
      # moves score best | moves s1 ... s7 (-1000: a full column)
      best = -1000
      for (i = 5; i <= 11; i++) if ($i > best) best = $i
      ok = ($1 == $4 && $2 == best && $(4 + $3) == best)
      print $1, "book", $2, $3, "pons", best, $(4 + $3), ok ? "ok" : "DIFFERS"
      n++; if (!ok) bad++
    }
    END { printf "%d positions checked, %d differ\n", n, bad; exit bad > 0 }' || status=$?
rm -f /tmp/book-check.$$
exit $status
