//! Inferior cells: dead cells (whose colour can never decide the game) and captured pairs (two
//! cells a player can always keep), found from the six cells around each, and the fill-in that
//! colours them.
//!
//! A cell's ring of six neighbours, each Black, White, empty, or beyond both edges at an obtuse
//! corner, is one of 4^6 codes; a table built at compile time says for each code whether the
//! cell is useless to Black and whether it is useless to White ([`useless`]).

use game_core::Player;

use super::HexBoard;
use super::geometry::{BLACK_EDGE, MAX_CELLS, NOWHERE, WHITE_EDGE, rings};
use super::region;
use crate::bits::Bits;

/// A ring entry's state in a code: two bits each, entry `k` at bits `2k` and `2k + 1`.
const BLACK: usize = 0;
const WHITE: usize = 1;
const EMPTY: usize = 2;
/// Beyond both edges (the corner next to an obtuse corner cell): it stands for the edge of
/// whichever player looks at it, as the entries on either side of it are that player's edges.
const CORNER: usize = 3;

/// Whether the centre of the ring `code` is useless to `player` (`BLACK` or `WHITE`): no set of
/// cells that connects its edges needs it.
///
/// It is, when every two entries the player may still own (its stones, its edges, empty cells)
/// that are not next to each other around the ring are joined by an arc of the ring whose
/// entries between them are all the player's already. Then a connection through the centre
/// enters and leaves it through two such entries, and the arc joins them without it (two
/// entries next to each other in the ring touch). A cell useless to one player cannot decide
/// the game: the player's connections never need it, and the other player wins exactly when
/// the first does not connect. So it is dead, whoever owns it.
const fn useless(code: usize, player: usize) -> bool {
    const fn state(code: usize, k: usize) -> usize {
        (code >> (2 * (k % 6))) & 3
    }
    // The player's already (its stone or edge), or still to be had (those or empty).
    const fn owned(code: usize, k: usize, player: usize) -> bool {
        let s = state(code, k);
        s == player || s == CORNER
    }
    const fn open(code: usize, k: usize, player: usize) -> bool {
        owned(code, k, player) || state(code, k) == EMPTY
    }
    let mut i = 0;
    while i < 6 {
        // The entries two and three steps on (four and five steps on are two and one back).
        let mut step = 2;
        while step <= 3 {
            let j = i + step;
            if open(code, i, player) && open(code, j, player) {
                // Forward from i to j, or backward (forward from j to i + 6).
                let mut forward = true;
                let mut k = i + 1;
                while k < j {
                    forward &= owned(code, k, player);
                    k += 1;
                }
                let mut backward = true;
                let mut k = j + 1;
                while k < i + 6 {
                    backward &= owned(code, k, player);
                    k += 1;
                }
                if !forward && !backward {
                    return false;
                }
            }
            step += 1;
        }
        i += 1;
    }
    true
}

/// For each ring code, whether its centre is dead (useless to Black or to White).
static DEAD: [bool; 4096] = DEAD_TABLE;

/// [`DEAD`], as a constant the tables below are built from.
const DEAD_TABLE: [bool; 4096] = {
    let mut table = [false; 4096];
    let mut code = 0;
    while code < 4096 {
        table[code] = useless(code, BLACK) || useless(code, WHITE);
        code += 1;
    }
    table
};

/// For each ring code and each state (`BLACK`, `WHITE`), the empty entries that would leave
/// the centre dead if that player took them: bit `k` for entry `k`.
static KILLERS: [[u8; 4096]; 2] = {
    let mut table = [[0u8; 4096]; 2];
    let mut code = 0;
    while code < 4096 {
        let mut k = 0;
        while k < 6 {
            if (code >> (2 * k)) & 3 == EMPTY {
                let mut state = 0;
                while state < 2 {
                    let taken = code & !(3 << (2 * k)) | state << (2 * k);
                    if DEAD_TABLE[taken] {
                        table[state][code] |= 1 << k;
                    }
                    state += 1;
                }
            }
            k += 1;
        }
        code += 1;
    }
    table
};

/// The state in a code of each cell colour (0 empty, 1 Black, 2 White).
const STATE: [usize; 3] = [EMPTY, BLACK, WHITE];

/// The cells fill-in coloured, and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inferior<const W: usize> {
    /// Dead cells (given to Black in the filled position: their colour does not matter).
    pub(crate) dead: Bits<W>,
    /// The cells captured by each player (in pairs by the fill-in's patterns, or in regions by
    /// [`region::captured`]).
    pub(crate) captured: [Bits<W>; 2],
}

impl<const W: usize> Inferior<W> {
    /// The cells the filled position gives `player`, as [`HexBoard::winner_after`] colours
    /// them: its captured cells, and the dead ones for Black.
    pub(crate) fn given(&self, player: Player) -> Bits<W> {
        match player {
            Player::Black => self.captured[0] | self.dead,
            Player::White => self.captured[1],
        }
    }

    /// Every cell fill-in coloured.
    pub(crate) fn all(&self) -> Bits<W> {
        self.dead | self.captured[0] | self.captured[1]
    }
}

/// The ring code of cell `i` with the colours of `colour` (0 empty, 1 Black, 2 White).
#[inline]
fn code(ring: &[u16; 6], colour: &[u8]) -> usize {
    let mut code = 0;
    for (k, &entry) in ring.iter().enumerate() {
        let state = match entry {
            BLACK_EDGE => BLACK,
            WHITE_EDGE => WHITE,
            NOWHERE => CORNER,
            cell => STATE[usize::from(colour[usize::from(cell)])],
        };
        code |= state << (2 * k);
    }
    code
}

/// `code` with its entry `k` set to `state`.
#[inline]
fn with_entry(code: usize, k: usize, state: usize) -> usize {
    code & !(3 << (2 * k)) | state << (2 * k)
}

/// Finds the dead cells and the captured pairs of the board of side `n` whose cells have the
/// colours `colour` (0 empty, 1 Black, 2 White; `cells` the empty ones), colours them (dead
/// ones Black, captured ones their captor's) until none is left, and returns them.
///
/// Each cell coloured leaves a position that every way of filling the rest of the board ends
/// as the original would, so the next cells are found on it: a dead cell because its colour
/// changes no result, a captured pair because its captor answers a stone in one cell with the
/// other, which leaves the intruder dead.
///
/// Every empty cell's ring code is computed once; colouring a cell patches the codes of its
/// empty neighbours and puts them back on the work list, so a cell is looked at again only
/// when something around it changed.
pub(super) fn fill<const W: usize>(n: u8, colour: &mut [u8], cells: Bits<W>) -> Inferior<W> {
    fill_with_codes(n, colour, cells).0
}

/// [`fill`], which also returns its work list, whose ring codes are those of the cells still
/// empty on the filled board.
fn fill_with_codes<const W: usize>(
    n: u8,
    colour: &mut [u8],
    cells: Bits<W>,
) -> (Inferior<W>, Work) {
    let rings = rings(n);
    let mut found = Inferior {
        dead: Bits::EMPTY,
        captured: [Bits::EMPTY; 2],
    };
    let mut work = Work {
        codes: [0; MAX_CELLS],
        list: [0; MAX_CELLS],
        queued: [false; MAX_CELLS],
        len: 0,
    };
    for i in cells.iter() {
        let code = code(&rings[i], colour);
        work.codes[i] = code as u16;
        work.queue(i, code);
    }
    work.run(rings, colour, &mut found);
    (found, work)
}

impl Work {
    /// Colours the cells on the list and those their colouring puts back on it, until none is
    /// left: dead ones Black (in `found.dead`), captured pairs their captor's.
    fn run<const W: usize>(
        &mut self,
        rings: &[[u16; 6]],
        colour: &mut [u8],
        found: &mut Inferior<W>,
    ) {
        while let Some(a) = self.next() {
            if colour[a] != 0 {
                continue;
            }
            let code_a = usize::from(self.codes[a]);
            if DEAD[code_a] {
                found.dead |= Bits::single(a);
                self.take(a, BLACK, colour, &rings[a]);
                continue;
            }
            // A captured pair: an empty neighbour `b` such that for one player, with its stone
            // on either, the other is dead.
            let pair = rings[a].iter().enumerate().find_map(|(k, &b)| {
                let b = usize::from(b);
                if b >= MAX_CELLS || colour[b] != 0 {
                    return None;
                }
                let code_b = usize::from(self.codes[b]);
                let back = (k + 3) % 6;
                [BLACK, WHITE].into_iter().find_map(|state| {
                    (DEAD[with_entry(code_a, k, state)] && DEAD[with_entry(code_b, back, state)])
                        .then_some((b, state))
                })
            });
            if let Some((b, state)) = pair {
                found.captured[state] |= Bits::single(a) | Bits::single(b);
                self.take(a, state, colour, &rings[a]);
                self.take(b, state, colour, &rings[b]);
            }
        }
    }
}

/// For each cell of `open` (the cells still empty on the filled board `colour`, whose ring
/// codes are in `work`, its list done), the cells of `open` that *dominate* it for `mover`
/// (`BLACK` or `WHITE`): `dominators[x]` holds `y` when, with the mover's stone on `y`, the
/// fill-in colours `x` (dead, or captured for the mover). Then the position after `y` is the
/// position after `y` with `x` the mover's too, which is at least as good for the mover as the
/// position after `x` alone: `y` does all a stone on `x` could do.
///
/// Each `y` continues the fill-in from the filled board and then undoes it (the colours of the
/// cells it coloured, the codes of their neighbours), so a move costs what its fill-in
/// colours, not a new fill-in of the board.
fn dominators<const W: usize>(
    n: u8,
    colour: &mut [u8],
    work: &mut Work,
    open: Bits<W>,
    mover: usize,
    dominators: &mut [Bits<W>; MAX_CELLS],
) {
    let rings = rings(n);
    let codes = work.codes;
    for y in open.iter() {
        let mut found = Inferior {
            dead: Bits::EMPTY,
            captured: [Bits::EMPTY; 2],
        };
        work.take(y, mover, colour, &rings[y]);
        work.run(rings, colour, &mut found);
        for x in ((found.dead | found.captured[mover]) & open).iter() {
            dominators[x] |= Bits::single(y);
        }
        for c in (found.all() | Bits::single(y)).iter() {
            colour[c] = 0;
            for &j in &rings[c] {
                let j = usize::from(j);
                if j < MAX_CELLS {
                    work.codes[j] = codes[j];
                }
            }
        }
    }
}

/// The empty cells `open` of a filled board (its colours `colour`, its ring codes in `work`)
/// that `mover` need not play either:
///
/// - **vulnerable**: an opponent's stone on an empty neighbour (the killer) would leave it
///   dead, so a stone there is answered at the killer and wasted: the mover does no worse
///   elsewhere;
/// - **dominated**: the mover's own stone on another cell would colour it in the fill-in
///   ([`dominators`]), so that cell does all a stone here could do. A cell is left out only
///   for a dominator not left out already (the vulnerable ones are left out first), so that
///   each chain of dominations ends at a cell kept.
///
/// These are moves to leave out of a search, not cells to colour: unlike the fill-in's, they
/// depend on who is to move.
fn outclassed<const W: usize>(
    n: u8,
    colour: &mut [u8],
    work: &mut Work,
    open: Bits<W>,
    mover: Player,
) -> Bits<W> {
    let (mine, theirs) = match mover {
        Player::Black => (BLACK, WHITE),
        Player::White => (WHITE, BLACK),
    };
    let mut out = Bits::EMPTY;
    for c in open.iter() {
        if KILLERS[theirs][usize::from(work.codes[c])] != 0 {
            out |= Bits::single(c);
        }
    }
    let mut by = [Bits::EMPTY; MAX_CELLS];
    dominators(n, colour, work, open, mine, &mut by);
    for c in open.iter() {
        if !(by[c] & !out).is_empty() {
            out |= Bits::single(c);
        }
    }
    out
}

/// [`outclassed`] read from the ring of each cell alone, as the fill-in's patterns are: cheaper
/// (no fill-in per move), for the tree search's prior. The empty cells `cells` of a filled
/// board (whose ring codes, from the fill-in, are `codes`) that `mover` need not play either:
///
/// - **vulnerable**: an opponent's stone on an empty neighbour (the killer) would leave it
///   dead, so a stone there is answered at the killer and wasted: the mover does no worse
///   elsewhere;
/// - **dominated**: the mover's own stone on an empty neighbour would leave it dead, so that
///   neighbour does all a stone here could do. A cell whose every such neighbour is left out
///   already is kept, so that each chain of dominations ends at a cell kept.
///
/// These are moves to leave out of a search, not cells to colour: unlike the fill-in's, they
/// depend on who is to move.
fn outclassed_by_ring<const W: usize>(
    n: u8,
    codes: &[u16; MAX_CELLS],
    cells: Bits<W>,
    mover: Player,
) -> Bits<W> {
    let rings = rings(n);
    let (mine, theirs) = match mover {
        Player::Black => (BLACK, WHITE),
        Player::White => (WHITE, BLACK),
    };
    let mut out = Bits::EMPTY;
    for c in cells.iter() {
        let ring = &rings[c];
        let code = usize::from(codes[c]);
        // Vulnerable: some opponent's stone on an empty neighbour kills it.
        let vulnerable = KILLERS[theirs][code] != 0;
        // Dominated: so would one of the mover's own, on a neighbour not left out already.
        let mut dominators = KILLERS[mine][code];
        let mut dominated = false;
        while dominators != 0 && !dominated {
            let k = dominators.trailing_zeros() as usize;
            dominators &= dominators - 1;
            dominated = !out.contains(usize::from(ring[k]));
        }
        if vulnerable || dominated {
            out |= Bits::single(c);
        }
    }
    out
}

/// Colours the regions that [`region::captured`] finds on the filled board (colours
/// `colour`, its ring codes in `work`, its cells coloured so far `found`, the position's empty
/// cells `empty`) as it says, and what the fill-in's patterns then colour, until it finds none.
fn fill_regions<const W: usize>(
    n: u8,
    colour: &mut [u8],
    work: &mut Work,
    found: &mut Inferior<W>,
    empty: Bits<W>,
) {
    let rings = rings(n);
    while let Some(region) = region::captured(n, colour, empty & !found.all()) {
        for state in [BLACK, WHITE] {
            for i in region[state].iter() {
                found.captured[state] |= Bits::single(i);
                work.take(i, state, colour, &rings[i]);
            }
        }
        work.run(rings, colour, found);
    }
}

/// How far [`HexBoard::inferior_and_outclassed`] looks for the cells a stone dominates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Domination {
    /// Only a neighbour's stone that would leave the cell dead, read off its ring
    /// ([`outclassed_by_ring`]): what the tree search's prior leaves out, at a fraction of the
    /// cost.
    Ring,
    /// Any cell whose stone would make the fill-in colour it ([`outclassed`]).
    FillIn,
}

/// The fill-in's work list: each empty cell's ring code, and the cells to look at again.
struct Work {
    codes: [u16; MAX_CELLS],
    list: [u16; MAX_CELLS],
    queued: [bool; MAX_CELLS],
    len: usize,
}

impl Work {
    /// Puts cell `i` (ring `code`) on the list, unless it is there already or has too many
    /// empty neighbours: each pattern needs at least three of its own neighbours taken.
    #[inline]
    fn queue(&mut self, i: usize, code: usize) {
        if !self.queued[i] && EMPTY_COUNT[code] <= 3 {
            self.queued[i] = true;
            self.list[self.len] = i as u16;
            self.len += 1;
        }
    }

    fn next(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        let i = usize::from(self.list[self.len]);
        self.queued[i] = false;
        Some(i)
    }

    /// Colours cell `i` (whose ring is `ring`) with `state` and queues its empty neighbours,
    /// whose codes change.
    fn take(&mut self, i: usize, state: usize, colour: &mut [u8], ring: &[u16; 6]) {
        colour[i] = 1 + state as u8;
        for (k, &j) in ring.iter().enumerate() {
            let j = usize::from(j);
            if j < MAX_CELLS && colour[j] == 0 {
                let code = with_entry(usize::from(self.codes[j]), (k + 3) % 6, state);
                self.codes[j] = code as u16;
                self.queue(j, code);
            }
        }
    }
}

/// For each ring code, how many of its entries are empty.
static EMPTY_COUNT: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut code = 0;
    while code < 4096 {
        let mut k = 0;
        while k < 6 {
            if (code >> (2 * k)) & 3 == EMPTY {
                table[code] += 1;
            }
            k += 1;
        }
        code += 1;
    }
    table
};

impl<const W: usize> HexBoard<W> {
    /// The inferior cells of this position; none while the swap is still to be decided (it
    /// changes the stones' colour).
    pub(crate) fn inferior(&self) -> Inferior<W> {
        if self.swap_rule && self.plies == 1 {
            return Inferior {
                dead: Bits::EMPTY,
                captured: [Bits::EMPTY; 2],
            };
        }
        let mut colour = self.colours();
        fill(self.n, &mut colour, self.empty())
    }

    /// The inferior cells of this position ([`inferior`](Self::inferior)) and, on the filled
    /// board, the vulnerable and dominated cells of the player to move, from one fill-in: the
    /// dominated ones as far as `domination` looks.
    pub(crate) fn inferior_and_outclassed(&self, domination: Domination) -> (Inferior<W>, Bits<W>) {
        if self.swap_rule && self.plies == 1 {
            return (self.inferior(), Bits::EMPTY);
        }
        let mut colour = self.colours();
        let (mut found, mut work) = fill_with_codes(self.n, &mut colour, self.empty());
        if domination == Domination::FillIn {
            fill_regions(self.n, &mut colour, &mut work, &mut found, self.empty());
        }
        let open = self.empty() & !found.all();
        let out = match domination {
            Domination::Ring => outclassed_by_ring(self.n, &work.codes, open, self.to_move),
            Domination::FillIn => outclassed(self.n, &mut colour, &mut work, open, self.to_move),
        };
        (found, out)
    }

    /// Who connects once the cells `found` are coloured, if someone does then.
    pub(crate) fn winner_after(&self, found: &Inferior<W>) -> Option<Player> {
        let mut filled = self.clone();
        filled.stones[0] |= found.given(Player::Black);
        filled.stones[1] |= found.given(Player::White);
        filled.connected()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The killer masks against the plain reading: an empty entry, taken by the player, leaves
    /// the centre dead.
    #[test]
    fn killers_are_the_empty_entries_that_kill() {
        for code in 0..4096 {
            for state in [BLACK, WHITE] {
                let plain = (0..6).fold(0u8, |mask, k| {
                    let empty = (code >> (2 * k)) & 3 == EMPTY;
                    if empty && DEAD[with_entry(code, k, state)] {
                        mask | 1 << k
                    } else {
                        mask
                    }
                });
                assert_eq!(
                    KILLERS[state][code], plain,
                    "code {code:012b}, state {state}"
                );
            }
        }
    }

    /// Each move's fill-in is undone: after the dominators are found, the colours and ring
    /// codes are those of the filled board again (on random positions of several sizes).
    #[test]
    fn finding_dominators_leaves_the_filled_board_as_it_was() {
        use crate::Hex;
        use crate::hex::with_board;
        use game_core::Game;
        use rand::{SeedableRng, seq::IndexedRandom};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut dominated = 0;
        for (size, stones) in [(5, 6), (7, 14), (9, 20), (11, 30), (13, 50)] {
            for _ in 0..20 {
                let mut position = Hex::new(size).unwrap();
                for _ in 0..stones {
                    if position.status().is_over() {
                        break;
                    }
                    let moves = position.legal_actions_vec();
                    position.play(*moves.choose(&mut rng).unwrap());
                }
                with_board!(&position.0, b => {
                    let mut colour = b.colours();
                    let (found, mut work) = fill_with_codes(b.n, &mut colour, b.empty());
                    let (colour_before, codes_before) = (colour, work.codes);
                    let open = b.empty() & !found.all();
                    let mut by = [Bits::EMPTY; MAX_CELLS];
                    dominators(b.n, &mut colour, &mut work, open, BLACK, &mut by);
                    assert_eq!(colour, colour_before);
                    for i in open.iter() {
                        assert_eq!(work.codes[i], codes_before[i]);
                    }
                    dominated += by.iter().filter(|d| !d.is_empty()).count();
                });
            }
        }
        assert!(dominated > 0);
    }
}
