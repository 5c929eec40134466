//! The ziggurat (the third-row edge template, `IIIa`) for the playouts: a stone on the third
//! row connects to its edge through eight empty cells; when the opponent plays into them and
//! no other ziggurat of the stone holds, the playout answers with the cell that keeps it
//! connected.
//!
//! In the frame of a stone `S` at `(0, 0)` on the third row of the edge beyond `y = -1` (the
//! first row is `y = -2`), one ziggurat is
//!
//! ```text
//!         a  S             a (-1, 0)
//!       b  c  d            b (-1,-1)  c (0,-1)  d (1,-1)
//!     e  f  g  h           e (-1,-2)  f (0,-2)  g (1,-2)  h (2,-2)
//! ```
//!
//! (rows drawn shifted as on a Hex board). `S` reaches the edge through `c` (the second-row
//! template `f g`) or through `d` (`g h`); those two share `g`, and an intrusion there is
//! answered by `b`, a bridge from `S` over `a c` with `e f` below it. Every other intrusion
//! leaves one of the three, which the answer takes. The mirror image (`(dx, dy)` to
//! `(-dx - dy, dy)`) is the stone's other ziggurat; the other edges are this frame turned.

use std::sync::OnceLock;

use crate::bits::MAX_SIDE;

/// The carrier of the ziggurat above, cells `a` to `h` as offsets from the stone.
const CARRIER: [(i32, i32); 8] = [
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
];

/// For an intrusion into each cell of [`CARRIER`], the index in it of the answer.
const ANSWER: [usize; 8] = [3, 3, 3, 2, 3, 3, 1, 2];

/// One ziggurat on one board (its stone and owner are in the [`Into`] entries that lead to
/// it): its eight carrier cells, and the index of the stone's other ziggurat towards the same
/// edge (`NONE` when that one does not fit on the board).
#[derive(Clone, Copy, Debug)]
struct Ziggurat {
    carrier: [u16; 8],
    sibling: u32,
}

const NONE: u32 = u32::MAX;

/// The list of an intrusion on `cell` into the ziggurats of `owner` (1 or 2), on a board of
/// `cells` cells: Black's lists, then White's.
fn list(cells: usize, owner: u8, cell: usize) -> usize {
    usize::from(owner - 1) * cells + cell
}

/// Every ziggurat of a board side, and for each cell the ziggurats whose carrier holds it with
/// the answer to an intrusion there.
#[derive(Debug)]
pub(super) struct Ziggurats {
    all: Vec<Ziggurat>,
    /// The entries of an intrusion, list by list ([`list`]): list `j` is
    /// `into[start[j]..start[j + 1]]`.
    start: Vec<u32>,
    into: Vec<Into>,
}

/// An intrusion's entry: the stone whose ziggurat it breaks into (read first: most entries
/// end there), the answer, and the ziggurat.
#[derive(Clone, Copy, Debug)]
struct Into {
    stone: u16,
    answer: u16,
    zig: u32,
}

impl Ziggurats {
    fn build(n: i32) -> Ziggurats {
        // The four edges: the frame's cell (x, y) (its edge beyond y = -1) on the board, and
        // the edge's owner. Each is a symmetry of the board, so the frame's shapes keep theirs.
        type Place = fn(i32, i32, i32) -> (i32, i32);
        let edges: [(Place, u8); 4] = [
            (|_, x, y| (x, y), 1),                 // Black's edge beyond y = -1
            (|n, x, y| (n - 1 - x, n - 1 - y), 1), // Black's edge beyond y = n
            (|_, x, y| (y, x), 2),                 // White's edge beyond x = -1
            (|n, x, y| (n - 1 - y, n - 1 - x), 2), // White's edge beyond x = n
        ];
        let mirror = |(dx, dy): (i32, i32)| (-dx - dy, dy);
        let inside = |(x, y): (i32, i32)| (0..n).contains(&x) && (0..n).contains(&y);
        let cell = |(x, y): (i32, i32)| (y * n + x) as u16;
        let mut all = Vec::new();
        let mut answers = Vec::new();
        for (place, owner) in edges {
            for along in 0..n {
                let mut pair = [NONE; 2];
                for (side, slot) in pair.iter_mut().enumerate() {
                    let cells = CARRIER.map(|offset| {
                        let (dx, dy) = if side == 0 { offset } else { mirror(offset) };
                        place(n, along + dx, 2 + dy)
                    });
                    let stone = place(n, along, 2);
                    if !inside(stone) || !cells.iter().all(|&c| inside(c)) {
                        continue;
                    }
                    *slot = all.len() as u32;
                    all.push(Ziggurat {
                        carrier: cells.map(cell),
                        sibling: NONE,
                    });
                    for (k, &at) in cells.iter().enumerate() {
                        let entry = Into {
                            stone: cell(stone),
                            answer: cell(cells[ANSWER[k]]),
                            zig: *slot,
                        };
                        answers.push((list((n * n) as usize, owner, usize::from(cell(at))), entry));
                    }
                }
                if pair.iter().all(|&z| z != NONE) {
                    all[pair[0] as usize].sibling = pair[1];
                    all[pair[1] as usize].sibling = pair[0];
                }
            }
        }
        answers.sort_by_key(|&(j, _)| j);
        let lists = 2 * (n * n) as usize;
        let mut start = vec![0u32; lists + 1];
        for &(j, _) in &answers {
            start[j + 1] += 1;
        }
        for j in 0..lists {
            start[j + 1] += start[j];
        }
        Ziggurats {
            all,
            start,
            into: answers.into_iter().map(|(_, entry)| entry).collect(),
        }
    }

    /// The entries of an intrusion on `cell` into the ziggurats of `owner` (1 or 2).
    fn entries(&self, owner: u8, cell: usize) -> &[Into] {
        let j = list((self.start.len() - 1) / 2, owner, cell);
        &self.into[self.start[j] as usize..self.start[j + 1] as usize]
    }

    /// The ziggurats of a board side, built once.
    pub(super) fn of(n: u8) -> &'static Ziggurats {
        static ALL: OnceLock<Vec<Ziggurats>> = OnceLock::new();
        &ALL.get_or_init(|| (0..=i32::from(MAX_SIDE)).map(Ziggurats::build).collect())
            [usize::from(n)]
    }

    /// The cell where `mover` (1 Black, 2 White) keeps a ziggurat that the opponent's stone
    /// on `intruder` has just broken into, given each cell's colour (0 empty): a ziggurat of
    /// one of the mover's stones with no other stone of the opponent in its carrier, when the
    /// answer is empty and no other such ziggurat of that stone is left; `None` when there is
    /// none. (The mover's own stones in a carrier only help: the answer keeps the stone
    /// connected with the carrier's other cells empty, so with some of them the mover's too.)
    #[inline]
    pub(super) fn answer(
        &self,
        intruder: usize,
        mover: u8,
        colour: impl Fn(usize) -> u8,
    ) -> Option<usize> {
        // A ziggurat holds while the opponent has no stone in its carrier (besides the
        // intruder's): the mover's own stones there only help.
        let holds = |z: &Ziggurat| {
            z.carrier.iter().all(|&c| {
                let c = usize::from(c);
                c == intruder || colour(c) & !mover == 0
            })
        };
        // A ziggurat still keeps its stone connected: it holds, and the intruder is not in it
        // or the answer to it there is the mover's already.
        let kept = |z: &Ziggurat| {
            holds(z)
                && z.carrier
                    .iter()
                    .position(|&c| usize::from(c) == intruder)
                    .is_none_or(|k| colour(usize::from(z.carrier[ANSWER[k]])) != 0)
        };
        self.entries(mover, intruder)
            .iter()
            .filter(|entry| colour(usize::from(entry.stone)) == mover)
            .find(|entry| {
                let zig = &self.all[entry.zig as usize];
                holds(zig)
                    && !kept(zig)
                    && (zig.sibling == NONE || !kept(&self.all[zig.sibling as usize]))
            })
            .map(|entry| usize::from(entry.answer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{BLACK_EDGE, WHITE_EDGE, rings};

    /// A ziggurat as the tests read it: whose, its stone, its carrier.
    #[derive(Clone, Copy, Debug)]
    struct Shape {
        owner: u8,
        stone: u16,
        carrier: [u16; 8],
    }

    /// Whether the owner connects the stone to its edge through the carrier cells, the cells
    /// in `owned` (bits by carrier index) already its and those in `taken` the opponent's,
    /// with `owner_to_move` or the opponent to move: a search of every order of play, written
    /// from the rules (the rings' neighbours, the edges beyond them).
    fn connects(n: u8, zig: &Shape, owned: u8, taken: u8, owner_to_move: bool) -> bool {
        let edge = if zig.owner == 1 {
            BLACK_EDGE
        } else {
            WHITE_EDGE
        };
        let rings = rings(n);
        // A flood from the stone through the owned carrier cells.
        let mut reached = vec![usize::from(zig.stone)];
        let mut seen = 0u8;
        while let Some(cell) = reached.pop() {
            if rings[cell].contains(&edge) {
                return true;
            }
            for (k, &c) in zig.carrier.iter().enumerate() {
                if owned & (1 << k) != 0 && seen & (1 << k) == 0 && rings[cell].contains(&c) {
                    seen |= 1 << k;
                    reached.push(usize::from(c));
                }
            }
        }
        let free = !(owned | taken);
        let moves = (0..8).filter(|k| free & (1 << k) != 0);
        if owner_to_move {
            moves
                .into_iter()
                .any(|k| connects(n, zig, owned | 1 << k, taken, false))
        } else {
            let mut moves = moves.peekable();
            moves.peek().is_some() && moves.all(|k| connects(n, zig, owned, taken | 1 << k, true))
        }
    }

    #[test]
    fn every_ziggurat_is_a_template_and_every_answer_keeps_it() {
        for n in 3..=9u8 {
            let zigs = Ziggurats::of(n);
            assert_eq!(
                zigs.all.len(),
                8 * usize::from(n.saturating_sub(3)),
                "{n}x{n}"
            );
            let cells = usize::from(n) * usize::from(n);
            let mut shapes: Vec<Option<Shape>> = vec![None; zigs.all.len()];
            let mut listed = vec![0; zigs.all.len()];
            // Each intrusion has its answer, which keeps the stone connected.
            for j in 0..2 * cells {
                let (owner, i) = (1 + (j / cells) as u8, j % cells);
                for entry in zigs.entries(owner, i) {
                    let z = entry.zig as usize;
                    let zig = Shape {
                        owner,
                        stone: entry.stone,
                        carrier: zigs.all[z].carrier,
                    };
                    assert!(shapes[z].is_none_or(|s| (s.owner, s.stone) == (owner, entry.stone)));
                    shapes[z] = Some(zig);
                    listed[z] += 1;
                    let k = zig.carrier.iter().position(|&c| usize::from(c) == i);
                    let k = k.expect("an intrusion into the carrier");
                    let a = zig.carrier.iter().position(|&c| c == entry.answer).unwrap();
                    assert_ne!(a, k);
                    assert!(
                        connects(n, &zig, 1 << a, 1 << k, false),
                        "{zig:?}: {k} by {a}"
                    );
                }
            }
            for (zig, listed) in shapes.iter().zip(listed) {
                let zig = zig.expect("every ziggurat is listed");
                assert_eq!(listed, 8, "{zig:?}: every carrier cell lists it");
                // The stone is on the third row: not on its edge.
                let edge = if zig.owner == 1 {
                    BLACK_EDGE
                } else {
                    WHITE_EDGE
                };
                assert!(!rings(n)[usize::from(zig.stone)].contains(&edge));
                assert!(
                    connects(n, &zig, 0, 0, false),
                    "{zig:?} holds with the opponent first"
                );
                // Every carrier cell is needed: the owner cannot spare one.
                for k in 0..8 {
                    assert!(
                        !connects(n, &zig, 0, 1 << k, false),
                        "{zig:?} needs cell {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_stone_with_another_ziggurat_that_holds_needs_no_answer() {
        // Black's e3 on 9x9: ziggurats towards the top to the left (d3 d2 e2 f2 d1 e1 f1 g1)
        // and to the right (f3 g2 f2 e2 h1 g1 f1 e1). An intrusion into one only is not
        // answered; one into both is, with the cell that keeps the stone connected.
        let zigs = Ziggurats::of(9);
        let at = |s: &str| {
            let (x, y) = (s.as_bytes()[0] - b'a', s[1..].parse::<u8>().unwrap() - 1);
            usize::from(y) * 9 + usize::from(x)
        };
        let mut colour = [0u8; 81];
        colour[at("e3")] = 1;
        for intruder in ["d3", "d2", "d1", "f3", "g2", "h1"] {
            colour[at(intruder)] = 2;
            assert_eq!(
                zigs.answer(at(intruder), 1, |i| colour[i]),
                None,
                "{intruder}"
            );
            colour[at(intruder)] = 0;
        }
        for (intruder, answers) in [
            ("e2", &["f2"][..]),
            ("f2", &["e2"]),
            ("e1", &["f2", "e2"]),
            ("f1", &["d2", "g2"]),
            ("g1", &["e2", "f2"]),
        ] {
            colour[at(intruder)] = 2;
            let answer = zigs.answer(at(intruder), 1, |i| colour[i]);
            assert!(
                answers.iter().any(|&a| Some(at(a)) == answer),
                "{intruder}: {answer:?}"
            );
            // White's stones have no ziggurat here.
            assert_eq!(zigs.answer(at(intruder), 2, |i| colour[i]), None);
            // Black's answer with `stones` on the board too.
            let with = |stones: &[(usize, u8)]| {
                let mut more = colour;
                for &(i, c) in stones {
                    more[i] = c;
                }
                zigs.answer(at(intruder), 1, |i| more[i])
            };
            // Black's own stones elsewhere in the carriers change nothing; a White stone in
            // each carrier leaves nothing to keep; nor does a Black stone on the answer (the
            // stone is connected already).
            let (d1, h1, answered) = (at("d1"), at("h1"), answer.unwrap());
            assert_eq!(with(&[(d1, 1), (h1, 1)]), answer, "{intruder}");
            assert_eq!(with(&[(d1, 2), (h1, 2)]), None, "{intruder}");
            assert_eq!(with(&[(answered, 1)]), None, "{intruder}");
            colour[at(intruder)] = 0;
        }
    }
}
