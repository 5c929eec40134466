//! The conformance kit must be able to fail: each game here breaks one rule on purpose, and the
//! kit must report that rule.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use game_core::testing::{Cell, Conformance, ParseCellError, TicTacToe, Violation};
use game_core::{Game, Outcome, PlayError, PlayedActions, Player, Playout, Status};
use rand::Rng;

/// The defects, one per test.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Defect {
    None,
    DuplicateAction,
    TryPlayAcceptsIllegal,
    IsLegalRejectsCentre,
    HashDependsOnMoveOrder,
    HashIgnoresBoard,
    OngoingWhenFull,
    SameMoverTwice,
    MiscountsActions,
    RandomActionAlwaysFirst,
    RandomActionMayBeOccupied,
    PlayoutAlwaysDraws,
    PlayoutIgnoresSeed,
    PanicsAfterFiveMarks,
    PositionTextDropsLastRow,
    MarksBeyondActionSpace,
    NumberBeyondActionSpace,
    NumbersShared,
    NumberMovesWithTheGame,
    PlayoutTakesWins,
    ActionsAfterAWin,
    GameOverCalledIllegal,
    TryPlayMarksAFinishedBoard,
    TryPlayTakesTheFirstCell,
    CloneForgetsTheBoard,
}

/// How a broken game writes and reads its actions.
trait Notation:
    Copy + Eq + Hash + fmt::Debug + fmt::Display + FromStr<Err = ParseCellError> + Send + Sync
{
    fn cell(self) -> Cell;
    fn from_cell(cell: Cell) -> Self;
}

impl Notation for Cell {
    fn cell(self) -> Cell {
        self
    }
    fn from_cell(cell: Cell) -> Self {
        cell
    }
}

/// A cell that prints as its index `0..9` but parses `1..=9`: text that does not round-trip.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Misprinted(Cell);

impl fmt::Display for Misprinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.index())
    }
}

impl FromStr for Misprinted {
    type Err = ParseCellError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let error = || ParseCellError(s.to_owned());
        let n: u8 = s.parse().map_err(|_| error())?;
        let index = n.checked_sub(1).filter(|&i| i < 9).ok_or_else(error)?;
        Cell::new(index % 3, index / 3)
            .map(Misprinted)
            .ok_or_else(error)
    }
}

impl Notation for Misprinted {
    fn cell(self) -> Cell {
        self.0
    }
    fn from_cell(cell: Cell) -> Self {
        Misprinted(cell)
    }
}

/// Tic-tac-toe with one defect.
#[derive(Debug)]
struct Broken<A> {
    inner: TicTacToe,
    defect: Defect,
    /// The cells played, in order, as a number: equal positions reached in different orders
    /// have different histories.
    history: u64,
    _notation: std::marker::PhantomData<A>,
}

impl<A> Broken<A> {
    fn new(defect: Defect) -> Self {
        Broken {
            inner: TicTacToe::new(),
            defect,
            history: 0,
            _notation: std::marker::PhantomData,
        }
    }
}

impl<A> Clone for Broken<A> {
    fn clone(&self) -> Self {
        let inner = match self.defect {
            // A clone comes out as the empty board once there are two marks.
            Defect::CloneForgetsTheBoard if self.inner.marks() >= 2 => TicTacToe::new(),
            _ => self.inner.clone(),
        };
        Broken {
            inner,
            defect: self.defect,
            history: self.history,
            _notation: std::marker::PhantomData,
        }
    }
}

/// Positions are equal when their boards are; the history is not part of the position.
impl<A> PartialEq for Broken<A> {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}
impl<A> Eq for Broken<A> {}

impl<A> fmt::Display for Broken<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.inner.to_string();
        match self.defect {
            Defect::PositionTextDropsLastRow => f.write_str(&text.replace('\n', "")[..6]),
            _ => f.write_str(&text),
        }
    }
}

impl<A> FromStr for Broken<A> {
    type Err = String;
    /// Parses the board; a six-cell text gets an empty last row.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let padded = if s.len() == 6 {
            format!("{s}...")
        } else {
            s.to_owned()
        };
        let inner = padded.parse::<TicTacToe>().map_err(|e| e.to_string())?;
        Ok(Broken {
            inner,
            ..Broken::new(Defect::PositionTextDropsLastRow)
        })
    }
}

static CALLS: AtomicUsize = AtomicUsize::new(0);

impl<A: Notation> Game for Broken<A> {
    type Action = A;

    fn to_move(&self) -> Player {
        match self.defect {
            Defect::SameMoverTwice if self.inner.marks() == 1 => Player::Black,
            _ => self.inner.to_move(),
        }
    }

    fn status(&self) -> Status {
        match (self.defect, self.inner.status()) {
            (Defect::OngoingWhenFull, Status::Over(Outcome::Draw)) => Status::Ongoing,
            (_, status) => status,
        }
    }

    fn legal_actions<E: Extend<A>>(&self, out: &mut E) {
        assert!(
            !(self.defect == Defect::PanicsAfterFiveMarks && self.inner.marks() >= 5),
            "five marks are too many for me"
        );
        let cells = match self.defect {
            // The empty cells, also once a line is complete.
            Defect::ActionsAfterAWin if self.inner.status().is_over() => (0..9u8)
                .map(|i| Cell::new(i % 3, i / 3).unwrap())
                .filter(|&c| self.inner.at(c).is_none())
                .collect(),
            _ => self.inner.legal_actions_vec(),
        };
        out.extend(cells.iter().map(|&c| A::from_cell(c)));
        if let (Defect::DuplicateAction, Some(&first)) = (self.defect, cells.first()) {
            out.extend([A::from_cell(first)]);
        }
    }

    fn play_unchecked(&mut self, action: A) {
        self.inner.play_unchecked(action.cell());
        self.history = self.history * 10 + action.cell().index() as u64 + 1;
    }

    fn position_hash(&self) -> u64 {
        match self.defect {
            Defect::HashDependsOnMoveOrder => self.inner.position_hash() ^ self.history,
            Defect::HashIgnoresBoard => 42,
            _ => self.inner.position_hash(),
        }
    }

    fn num_legal_actions(&self) -> usize {
        let n = self.legal_actions_vec().len();
        match self.defect {
            Defect::MiscountsActions if n > 0 => n + 1,
            _ => n,
        }
    }

    fn is_legal(&self, action: A) -> bool {
        let centre = Cell::new(1, 1).unwrap();
        match self.defect {
            Defect::IsLegalRejectsCentre if action.cell() == centre => false,
            _ => self.inner.is_legal(action.cell()),
        }
    }

    fn try_play(&mut self, action: A) -> Result<(), PlayError<A>> {
        match self.defect {
            Defect::TryPlayAcceptsIllegal => {
                self.play_unchecked(action);
                Ok(())
            }
            Defect::IsLegalRejectsCentre => {
                self.inner.try_play(action.cell()).map_err(|e| match e {
                    PlayError::GameOver(c) => PlayError::GameOver(A::from_cell(c)),
                    PlayError::Illegal(c) => PlayError::Illegal(A::from_cell(c)),
                })?;
                self.history = self.history * 10 + action.cell().index() as u64 + 1;
                Ok(())
            }
            Defect::GameOverCalledIllegal if self.status().is_over() => {
                Err(PlayError::Illegal(action))
            }
            Defect::TryPlayMarksAFinishedBoard if self.status().is_over() => {
                // Marks the cell first, then notices that the game was over.
                if self.inner.at(action.cell()).is_none() {
                    self.play_unchecked(action);
                }
                Err(PlayError::GameOver(action))
            }
            Defect::TryPlayTakesTheFirstCell if self.is_legal(action) => {
                // Any legal action plays the first empty cell.
                let first = self.inner.legal_actions_vec()[0];
                self.play_unchecked(A::from_cell(first));
                Ok(())
            }
            _ => {
                if self.status().is_over() {
                    return Err(PlayError::GameOver(action));
                }
                if !self.is_legal(action) {
                    return Err(PlayError::Illegal(action));
                }
                self.play_unchecked(action);
                Ok(())
            }
        }
    }

    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<A> {
        match self.defect {
            Defect::RandomActionAlwaysFirst => self.legal_actions_vec().first().copied(),
            Defect::RandomActionMayBeOccupied
                if self.inner.marks() > 0 && !self.status().is_over() =>
            {
                let occupied = (0..9u8)
                    .map(|i| Cell::new(i % 3, i / 3).unwrap())
                    .find(|&c| self.inner.at(c).is_some());
                occupied.map(A::from_cell)
            }
            _ => {
                let cells = self.inner.legal_actions_vec();
                (!cells.is_empty())
                    .then(|| A::from_cell(cells[(rng.next_u64() % cells.len() as u64) as usize]))
            }
        }
    }

    fn action_space(&self) -> Option<usize> {
        Some(9)
    }

    fn action_index(&self, action: A) -> usize {
        let cell = action.cell().index();
        match self.defect {
            // The last cell is numbered 9, beyond the space of 9.
            Defect::NumberBeyondActionSpace => cell + usize::from(cell == 8),
            // The two cells of the top row's right end share a number.
            Defect::NumbersShared => cell.min(1),
            // Numbers rotate with the stones on the board: distinct and in range in every
            // position, but not the same from one position to the next.
            Defect::NumberMovesWithTheGame => (cell + self.inner.marks() as usize) % 9,
            _ => cell,
        }
    }

    /// Marks nothing (the kit does not ask for every action), except with the defect.
    fn random_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        if self.defect == Defect::MarksBeyondActionSpace {
            played.insert(Player::Black, 12);
        }
        self.random_playout(rng)
    }

    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        let mut plies = 0;
        while !self.status().is_over() {
            let cells = self.inner.legal_actions_vec();
            // A cell that completes a line for the player to move, if any.
            let winning = cells.iter().position(|&cell| {
                matches!(
                    self.inner.after(cell).status(),
                    Status::Over(Outcome::Win(_))
                )
            });
            let pick = match self.defect {
                Defect::PlayoutTakesWins
                    if winning.is_some() && self.to_move() == Player::Black =>
                {
                    winning.unwrap_or(0)
                }
                Defect::PlayoutIgnoresSeed => CALLS.fetch_add(1, Ordering::Relaxed) % cells.len(),
                _ => (rng.next_u64() % cells.len() as u64) as usize,
            };
            self.play_unchecked(A::from_cell(cells[pick]));
            plies += 1;
        }
        let outcome = self
            .status()
            .outcome()
            .expect("the loop ends when the game does");
        match self.defect {
            Defect::PlayoutAlwaysDraws => Playout {
                outcome: Outcome::Draw,
                plies,
            },
            _ => Playout { outcome, plies },
        }
    }
}

fn violation_of<A: Notation>(defect: Defect) -> Violation {
    let failure = Conformance::new()
        .check(&Broken::<A>::new(defect))
        .expect_err("the kit must notice the defect");
    eprintln!("{defect:?}: {failure}");
    failure.violation
}

#[test]
fn the_wrapper_without_a_defect_passes() {
    Conformance::new().assert(&Broken::<Cell>::new(Defect::None));
    Conformance::new().assert(&TicTacToe::new());
    assert_eq!(
        Conformance::new().check_with_text(&TicTacToe::new()),
        Ok(())
    );
}

#[test]
fn reports_a_duplicated_legal_action() {
    assert_eq!(
        violation_of::<Cell>(Defect::DuplicateAction),
        Violation::DuplicateAction
    );
}

#[test]
fn reports_a_try_play_that_accepts_an_illegal_action() {
    assert_eq!(
        violation_of::<Cell>(Defect::TryPlayAcceptsIllegal),
        Violation::IllegalAccepted
    );
}

#[test]
fn reports_an_is_legal_that_rejects_a_legal_action() {
    assert_eq!(
        violation_of::<Cell>(Defect::IsLegalRejectsCentre),
        Violation::LegalRejected
    );
}

#[test]
fn reports_a_hash_that_differs_for_equal_positions() {
    assert_eq!(
        violation_of::<Cell>(Defect::HashDependsOnMoveOrder),
        Violation::HashMismatch
    );
}

#[test]
fn reports_a_hash_that_ignores_the_board() {
    assert_eq!(
        violation_of::<Cell>(Defect::HashIgnoresBoard),
        Violation::HashCollision
    );
}

#[test]
fn reports_an_ongoing_status_without_legal_actions() {
    assert_eq!(
        violation_of::<Cell>(Defect::OngoingWhenFull),
        Violation::OngoingWithoutActions
    );
}

#[test]
fn reports_an_action_text_that_does_not_round_trip() {
    assert_eq!(
        violation_of::<Misprinted>(Defect::None),
        Violation::ActionText
    );
}

#[test]
fn reports_a_position_text_that_does_not_round_trip() {
    let broken = Broken::<Cell>::new(Defect::PositionTextDropsLastRow);
    let failure = Conformance::new()
        .check_with_text(&broken)
        .expect_err("must fail");
    assert_eq!(failure.violation, Violation::PositionText);
    // The plain check does not look at position text.
    assert_eq!(Conformance::new().check(&broken), Ok(()));
}

#[test]
fn reports_legal_actions_in_a_finished_game() {
    assert_eq!(
        violation_of::<Cell>(Defect::ActionsAfterAWin),
        Violation::OverWithActions
    );
}

#[test]
fn reports_a_rejection_with_the_wrong_error() {
    // A finished game refuses a move as illegal, where it should say the game is over.
    assert_eq!(
        violation_of::<Cell>(Defect::GameOverCalledIllegal),
        Violation::BadRejection
    );
}

#[test]
fn reports_a_rejection_that_changes_the_position() {
    assert_eq!(
        violation_of::<Cell>(Defect::TryPlayMarksAFinishedBoard),
        Violation::BadRejection
    );
}

#[test]
fn reports_a_try_play_that_plays_another_action() {
    assert_eq!(
        violation_of::<Cell>(Defect::TryPlayTakesTheFirstCell),
        Violation::PlayMismatch
    );
}

#[test]
fn reports_a_clone_that_differs_from_its_original() {
    assert_eq!(
        violation_of::<Cell>(Defect::CloneForgetsTheBoard),
        Violation::CloneMismatch
    );
}

#[test]
fn reports_a_turn_that_is_not_passed() {
    assert_eq!(
        violation_of::<Cell>(Defect::SameMoverTwice),
        Violation::TurnNotPassed
    );
}

#[test]
fn reports_a_miscount() {
    assert_eq!(
        violation_of::<Cell>(Defect::MiscountsActions),
        Violation::CountMismatch
    );
}

#[test]
fn reports_a_biased_random_action() {
    assert_eq!(
        violation_of::<Cell>(Defect::RandomActionAlwaysFirst),
        Violation::RandomActionNotUniform
    );
}

#[test]
fn reports_an_illegal_random_action() {
    assert_eq!(
        violation_of::<Cell>(Defect::RandomActionMayBeOccupied),
        Violation::RandomActionIllegal
    );
}

#[test]
fn reports_a_playout_whose_outcome_is_wrong() {
    assert_eq!(
        violation_of::<Cell>(Defect::PlayoutAlwaysDraws),
        Violation::PlayoutInconsistent
    );
}

#[test]
fn reports_a_playout_that_ignores_its_seed() {
    assert_eq!(
        violation_of::<Cell>(Defect::PlayoutIgnoresSeed),
        Violation::PlayoutNotReproducible
    );
}

#[test]
fn reports_a_marked_playout_that_marks_beyond_the_action_space() {
    assert_eq!(
        violation_of::<Cell>(Defect::MarksBeyondActionSpace),
        Violation::MarkedPlayout
    );
}

#[test]
fn reports_an_action_number_beyond_the_action_space() {
    assert_eq!(
        violation_of::<Cell>(Defect::NumberBeyondActionSpace),
        Violation::ActionNumbering
    );
}

#[test]
fn reports_two_legal_actions_with_one_number() {
    assert_eq!(
        violation_of::<Cell>(Defect::NumbersShared),
        Violation::ActionNumbering
    );
}

#[test]
fn reports_an_action_whose_number_changes_between_positions() {
    assert_eq!(
        violation_of::<Cell>(Defect::NumberMovesWithTheGame),
        Violation::ActionNumbering
    );
}

#[test]
fn reports_a_playout_that_takes_wins_as_biased() {
    // Legal, consistent and reproducible, but not uniformly random play: Black wins when it can.
    assert_eq!(
        violation_of::<Cell>(Defect::PlayoutTakesWins),
        Violation::PlayoutBiased
    );
}

#[test]
fn reports_a_panic_as_a_failure_with_its_message() {
    let failure = Conformance::new()
        .check(&Broken::<Cell>::new(Defect::PanicsAfterFiveMarks))
        .unwrap_err();
    assert_eq!(failure.violation, Violation::Panicked);
    assert!(
        failure.detail.contains("five marks are too many"),
        "{failure}"
    );
}

/// A game that may go on forever: each player in turn says 0 or 1; it ends at a sum of 3.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Endless {
    sum: u32,
    to_move: Player,
}

impl fmt::Display for Endless {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sum {}", self.sum)
    }
}

impl Game for Endless {
    type Action = u32;
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn status(&self) -> Status {
        if self.sum >= 3 {
            Status::Over(Outcome::Win(self.to_move.opponent()))
        } else {
            Status::Ongoing
        }
    }
    fn legal_actions<E: Extend<u32>>(&self, out: &mut E) {
        if self.sum < 3 {
            out.extend([0, 1]);
        }
    }
    fn play_unchecked(&mut self, action: u32) {
        self.sum += action;
        self.to_move = self.to_move.opponent();
    }
    fn position_hash(&self) -> u64 {
        u64::from(self.sum) * 2 + self.to_move.index() as u64
    }
}

#[test]
fn reports_a_game_that_does_not_end() {
    let failure = Conformance::new()
        .max_plies(50)
        .check(&Endless {
            sum: 0,
            to_move: Player::Black,
        })
        .unwrap_err();
    assert_eq!(failure.violation, Violation::NoTermination, "{failure}");
}

#[test]
fn failures_point_to_a_short_path() {
    let failure = Conformance::new()
        .check(&Broken::<Cell>::new(Defect::OngoingWhenFull))
        .unwrap_err();
    // A draw needs a full board: exactly nine marks, shrunk to no more.
    assert_eq!(failure.path.len(), 9, "{failure}");
    let mut replay = TicTacToe::new();
    for cell in &failure.path {
        replay.try_play(cell.parse().unwrap()).unwrap();
    }
    assert_eq!(replay.status(), Status::Over(Outcome::Draw));
}

/// Knowledge for tic-tac-toe with one defect.
#[derive(Clone, Copy, Debug)]
enum BadKnowledge {
    PriorOneShort,
    NegativePrior,
    IllegalPolicy,
    /// Examine gives one verdict fewer than there are moves.
    VerdictOneShort,
    /// Examine calls every move a loss, also the move that wins at once.
    WinCalledLoss,
    /// The opening book always plays the top-left corner, taken or not.
    IllegalOpening,
    /// Examine advises answering each move on the same cell.
    IllegalReply,
}

impl game_core::knowledge::Prior<TicTacToe> for BadKnowledge {
    fn weigh(&self, _: &TicTacToe, actions: &[Cell], weights: &mut Vec<f32>) {
        match self {
            BadKnowledge::PriorOneShort => weights.extend(actions.iter().skip(1).map(|_| 1.0)),
            BadKnowledge::NegativePrior => weights.extend(actions.iter().map(|_| -1.0)),
            _ => weights.extend(actions.iter().map(|_| 1.0)),
        }
    }

    fn examine(
        &self,
        _: &TicTacToe,
        actions: &[Cell],
        found: &mut game_core::knowledge::Examination<Cell>,
    ) {
        let verdicts = &mut found.verdicts;
        match self {
            BadKnowledge::VerdictOneShort => {
                let short = actions.iter().skip(1);
                verdicts.extend(short.map(|_| game_core::knowledge::Verdict::Unknown));
            }
            BadKnowledge::WinCalledLoss => {
                verdicts.extend(actions.iter().map(|_| game_core::knowledge::Verdict::Loss));
            }
            BadKnowledge::IllegalReply => {
                found
                    .replies
                    .extend(actions.iter().map(|&action| (action, action)));
            }
            _ => {}
        }
    }

    fn opening(&self, _: &TicTacToe) -> Option<Cell> {
        matches!(self, BadKnowledge::IllegalOpening).then(|| "a1".parse().unwrap())
    }
}

impl game_core::knowledge::PlayoutPolicy<TicTacToe> for BadKnowledge {
    fn action<R: Rng + ?Sized>(&self, position: &TicTacToe, rng: &mut R) -> Cell {
        match self {
            // Always the top-left corner, taken or not.
            BadKnowledge::IllegalPolicy => "a1".parse().unwrap(),
            _ => position.random_action(rng).unwrap(),
        }
    }
}

fn knowledge_violation(defect: BadKnowledge) -> Violation {
    let knowledge = game_core::knowledge::Knowledge::NONE
        .with_prior(defect)
        .with_policy(defect);
    let failure = Conformance::new()
        .check_knowledge(&TicTacToe::new(), &knowledge)
        .expect_err("the kit must notice the defect");
    eprintln!("{defect:?}: {failure}");
    failure.violation
}

#[test]
fn reports_broken_knowledge() {
    for defect in [
        BadKnowledge::PriorOneShort,
        BadKnowledge::NegativePrior,
        BadKnowledge::IllegalPolicy,
        BadKnowledge::VerdictOneShort,
        BadKnowledge::WinCalledLoss,
        BadKnowledge::IllegalOpening,
        BadKnowledge::IllegalReply,
    ] {
        assert_eq!(
            knowledge_violation(defect),
            Violation::Knowledge,
            "{defect:?}"
        );
    }
    // Tic-tac-toe's own random play, as a policy, passes.
    let uniform = game_core::knowledge::Knowledge::NONE.with_policy(game_core::knowledge::Uniform);
    Conformance::new()
        .check_knowledge(&TicTacToe::new(), &uniform)
        .unwrap();
}
