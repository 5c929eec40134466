//! Settings of the UCT agent.

use crate::setting::{Setting, SettingError};

/// Which root action UCT plays when its budget is spent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum FinalChoice {
    /// The most visited (the robust child; the default).
    #[default]
    MostVisits,
    /// The best mean reward among visited actions.
    BestMean,
    /// The largest total reward.
    MostWins,
}

/// How many children a node gains when the search first passes through it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Expansion {
    /// One new child per iteration, in a random order (the default).
    #[default]
    One,
    /// Every child at once, each with one playout.
    All,
}

/// RAVE's settings (Gelly and Silver 2007), and GRAVE's (Cazenave 2015) with a
/// [`grave`](Self::grave) threshold: see [`UctConfig`] for what each does.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RaveConfig {
    /// The equivalence parameter `k` (above 0) of `β = sqrt(k / (3n + k))`, the weight of a
    /// child's AMAF mean at `n` visits.
    pub k: f64,
    /// GRAVE: the AMAF statistics are those of the closest ancestor (or the node itself) with
    /// at least this many visits; `None`: the node's own (plain RAVE).
    pub grave: Option<u32>,
    /// One selection in every `skip` reads no AMAF statistics, only the children's own means
    /// (Fuego's and MoHex's `randomize_rave_frequency`, 30 in MoHex 2.0); `None`: none.
    pub skip: Option<u32>,
    /// With a prior: the weight of the progressive bias `bias·P/sqrt(n + 1)` in RAVE's
    /// selection, which then replaces PUCT; `None` keeps PUCT.
    pub bias: Option<f64>,
}

impl RaveConfig {
    /// Plain RAVE as `rave:` specs start it: `k` 300.
    pub const RAVE: RaveConfig = RaveConfig {
        k: 300.0,
        grave: None,
        skip: None,
        bias: None,
    };
    /// GRAVE as `grave:` specs start it: `k` 300, the reference at 50 visits.
    pub const GRAVE: RaveConfig = RaveConfig {
        grave: Some(50),
        ..RaveConfig::RAVE
    };
}

/// The settings of [`Uct`](crate::Uct).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `exploration` | 0.4 | `c` in `mean + c * sqrt(ln N / n)` |
/// | `final_choice` | most visits | which root action to play |
/// | `expansion` | one child per iteration | or all children at once |
/// | `expand_after` | 1 | visits a leaf needs before it gains children (`expand_after=8` in specs), doubled for each halving of the room left once the tree is half full (see below) |
/// | `decay` | 1.0 (none) | a reward counts `decay^plies` of its value, plies to the end of the game |
/// | `reuse` | true | keep the subtree of the moves actually played |
/// | `max_nodes` | 4,000,000 | the tree never grows past this many nodes (24 bytes each, 40 with RAVE and a prior) |
/// | `prune` | true | a tree three quarters full loses its least-visited subtrees, down to half the cap (see below) |
/// | `prove` | false | MCTS-Solver: prove wins, losses and draws in the tree (see below; not the `solver` agent, which runs a game's exact solver) |
/// | `rave` | none (off) | RAVE's and GRAVE's settings ([`RaveConfig`]: `k`, `grave`, `skip`, `bias`); `rave:` specs use [`RaveConfig::RAVE`], `grave:` specs [`RaveConfig::GRAVE`] |
/// | `puct` | 1.0 | with a prior: `c` in PUCT's `Q + c·P·sqrt(N)/(1+n)` (see below) |
/// | `fpu` | 0 | with a prior: an untried child's `Q` is the mean of the tried ones less this (see below) |
/// | `cutoff` | none | simulations stop after this many plies and the evaluator scores the position (0: no playout at all) |
/// | `examine` | none (off) | with a prior: a node's `examine`-th visit asks the prior's [`examine`](game_core::knowledge::Prior::examine) what is proven about its moves (see below) |
/// | `reply` | 1.0 | with `examine`: the prior mass each advised reply gains (see below); 0 ignores the advice |
/// | `extend` | 1.0 (off) | with a time budget: an unstable search goes on, once, to this many times the budget (see below) |
///
/// The exploration constant: UCB1's `sqrt(2)` is the constant of the regret bound for rewards
/// in `[0, 1]`, not the best one in practice. Tuned on games, the best constant for win/loss
/// rewards in `[0, 1]` comes out well below it, about 0.3 on 7x7 Hex in published student
/// experiments; 0.4 is a middle value across Hex, Connect Four and Othello. Rewards on another
/// scale (a loss worth -100) need a constant on that scale.
///
/// The node cap: a tree that reached `max_nodes` would stop growing and play out from its
/// leaves for the rest of the search, however long. Instead, once half the cap is used, a leaf
/// needs twice `expand_after` visits to gain children, four times once three quarters are
/// used, and so on, doubling for each halving of the room left: the tree slows down
/// but keeps growing where the iterations go (the principal variation). Then, once three
/// quarters are used (or a node finds no room for its children), `prune` (on by default)
/// frees room as Fuego does: every node below the root with fewer visits than a threshold
/// loses its children, the threshold the smallest power of two that leaves at most half the
/// cap. Those nodes become leaves that keep their
/// own statistics and proofs, and gain children again (examined again, with `examine`) when
/// iterations come back to them, so a search of a minute keeps growing where its iterations
/// go. A search that never fills half the cap is not changed by either; pruning runs on one
/// thread (the lock-free parallel tree and the batched search stop at the cap).
///
/// The solver (Winands, Björnsson and Saito 2008) marks a node won when one of its children is
/// a win for the player choosing there, lost when every child is a loss for that player, and
/// (for games with draws) drawn when every child is decided and the best of them is a draw.
/// Selection never enters a lost child while another is open and always takes a won one; an
/// iteration that reaches a decided node backs up its result instead of playing out; the
/// search stops as soon as the root is decided, and plays a proven win when it has one.
///
/// RAVE (Gelly and Silver 2007) also keeps, for every child, the mean result of the iterations
/// in which its move was played by the same player *anywhere later* (in the tree below or in
/// the playout: "all moves as first", AMAF). Selection blends the two means,
/// `(1 - β) mean + β amaf + c sqrt(ln N / n)`, with `β = sqrt(k / (3n + k))`: at first mostly
/// AMAF, which has many more samples, then more and more the child's own mean (`β = 1/2` at
/// `n = k`). Selection weighs the untried children too, each by its AMAF mean (`β` is 1 at no
/// visits) with the exploration term of one visit, so a move the playouts already show to be
/// bad is not tried just because it has not been (one AMAF knows nothing of is tried first, at
/// random). The AMAF statistics, which change with every playout, do most of the exploring:
/// `rave:` and `grave:` specs use `c = 0.02` (MoGo and Fuego use 0, the strongest on Hex, but
/// it never tries some moves, and loses on Othello). It needs a game that numbers its actions
/// ([`Game::action_space`](game_core::Game::action_space)); for other games it does nothing.
///
/// With a prior ([`Knowledge::prior`](game_core::knowledge::Knowledge)), selection is PUCT (Rosin 2011, as
/// in AlphaZero, Silver et al. 2018): every child, tried or not, scores
/// `Q + c·P·sqrt(N)/(1+n)`, with `P` its prior probability, `N` the node's visits and `n` the
/// child's; an untried child's `Q` is the mean of the tried ones ("first play urgency"), and
/// the first child tried at a node is the one with the largest prior. With `fpu` above 0,
/// an untried child's `Q` is that mean less `fpu` (Leela Zero's "first play urgency
/// reduction"): a node's iterations stay longer with the moves already tried, so the search
/// goes deeper where the prior is right and wider only where the tried moves disappoint.
/// The prior replaces UCB1's exploration term, so moves it dislikes are tried late or never.
/// `c` trades the two: with rewards in `[0, 1]`, 1.0 lets a prior of 0.5 outweigh a mean 0.1
/// lower until about 25 visits; tune it by matches for each game and prior.
///
/// With RAVE and a prior, selection is PUCT with the AMAF means blended into `Q` (below, in
/// [`puct`](Self::puct)'s terms), unless `bias` is above 0: then it is RAVE's own, with a
/// progressive bias (Chaslot et al. 2008) in place of PUCT's term, as in MoHex 2.0: every child
/// scores `(1 - β) mean + β amaf + c sqrt(ln N / n) + bias·P/sqrt(n + 1)`, an untried one
/// (`n = 0`) its AMAF mean (0.5 while AMAF knows nothing of it) plus the terms of one visit,
/// and a child whose prior is 0 (an inferior move, or one a verdict proved lost) is never
/// chosen. Where PUCT lets the prior decide how long a move waits for visits, the bias fades
/// as a child's own visits grow and the AMAF means take over ordering the untried ones.
///
/// With a cut-off ([`cutoff`](Self::cutoff)) and an evaluator, a simulation plays at most that
/// many plies (with the playout policy) and, if the game goes on, scores the position it
/// reached by the evaluator's win probability (`Knowledge::scale`) instead of a result:
/// MCTS with evaluation cut-offs (Lorentz 2015) or, at 0, AlphaZero's value at the leaf.
///
/// With `examine` (and a prior), a node visited that many times asks the prior once what is
/// *proven* about its moves ([`Prior::examine`](game_core::knowledge::Prior::examine); Hex's virtual
/// connections): a losing move's prior becomes 0, and a winning move takes the whole prior,
/// so PUCT leaves the others out (tried or not); with the solver on, the decided moves are also
/// proven in the tree, which can decide the node at once. Without the solver, a node below the
/// root that the verdicts decide (it has a winning move, or every move loses) is marked so,
/// and from then on the iterations that reach it back up its proven result instead of a
/// playout, as a finished game's: its mean tends to the truth, but the proof is not carried up,
/// so the search still picks the move that resists best. The root's verdicts decide the
/// root's proof in the report too, and its search goes on; verdicts that are all alike (every
/// move lost, or every move won) are left to the search. When the verdicts leave no move any
/// prior, each move they keep weighs 1 (a verdict outranks the prior). This is
/// knowledge too costly for every new node (MoHex's "knowledge threshold"); the lock-free tree
/// of `parallel=tree` asks it too, and does the same with the verdicts.
///
/// The examination may also advise replies: after one of the node's moves, answers of the
/// opponent worth searching first (Hex: the moves that restore a connection the move breaks
/// into, MoHex's "VC maintenance"). The child of that move is expanded then if it was not, and
/// each advised reply with a prior above 0 gains `reply` (the priors summed to 1 before), so
/// that one advised reply takes about half of its siblings' prior. The lock-free tree of
/// `parallel=tree` follows it too (the child's new priors stored one atomic word each; an
/// iteration that meets the child while another thread expands it plays out from it, as
/// anywhere in that tree).
///
/// With `extend` above 1 and a time budget, a search whose time runs out while the root's most
/// visited child is unproven and another child with at least half its visits has a better mean
/// (an "unstable" search, Huang, Coulom and Lin 2010; Fuego and MoHex 2.0 extend by half, on
/// any better mean) goes on, once, until `extend` times the budget's time: the move it would
/// play is not yet the one it rates highest, and more visits settle which. A move may then
/// take longer than `time=`, so it is off by default; the parallel searches ignore it.
///
/// GRAVE (Cazenave 2015) takes the AMAF statistics not from the node itself but from its
/// closest ancestor (or itself) with at least `grave` visits, so that a young node borrows the
/// richer statistics of an older one instead of trusting its own few.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct UctConfig {
    /// The exploration constant `c`.
    pub exploration: f64,
    /// Which root action to play.
    pub final_choice: FinalChoice,
    /// How nodes gain children.
    pub expansion: Expansion,
    /// A leaf gains its children once it has this many visits (1: at the second iteration that
    /// reaches it); until then iterations play out from it.
    pub expand_after: u32,
    /// The per-ply reward decay, in `(0, 1]`; course material uses 0.9 to prefer quick wins.
    pub decay: f64,
    /// Keep the relevant subtree between moves.
    pub reuse: bool,
    /// The most nodes the tree may hold; when full, the search keeps playing out from its
    /// leaves without adding nodes (unless [`prune`](Self::prune) makes room).
    pub max_nodes: usize,
    /// Make room in a tree three quarters full: the least-visited nodes lose their subtrees,
    /// down to half of [`max_nodes`](Self::max_nodes) (spec key `prune`; on one thread, not
    /// in the lock-free parallel tree or the batched search).
    pub prune: bool,
    /// Prove results in the tree (MCTS-Solver; spec key `prove`).
    pub prove: bool,
    /// RAVE (GRAVE with [`RaveConfig::grave`]) and its settings; `None`: plain UCT.
    pub rave: Option<RaveConfig>,
    /// PUCT's constant, used when the search has a prior.
    pub puct: f64,
    /// How much less than the mean of the tried children an untried child's `Q` is in PUCT
    /// (first play urgency reduction; with a prior).
    pub fpu: f64,
    /// The most plies a simulation plays before the evaluator scores its position (with an
    /// evaluator; without one, simulations play to the end).
    pub cutoff: Option<u32>,
    /// The visits after which a node asks the prior what is proven about its moves (with a
    /// prior); `None`: never.
    pub examine: Option<u32>,
    /// With `examine`: the prior mass each reply the examination advises gains in the child of
    /// the move it answers (the child's priors summed to 1 before); 0 ignores the advice.
    pub reply: f64,
    /// With a time budget: when the time runs out while the move to play is unsure (another
    /// child with half its visits has a better mean), the search goes on, once, until this many
    /// times the budget's time; 1 (or less): never.
    pub extend: f64,
}

impl Default for UctConfig {
    fn default() -> Self {
        UctConfig {
            exploration: 0.4,
            final_choice: FinalChoice::MostVisits,
            expansion: Expansion::One,
            expand_after: 1,
            decay: 1.0,
            reuse: true,
            max_nodes: 4_000_000,
            prune: true,
            prove: false,
            rave: None,
            puct: 1.0,
            fpu: 0.0,
            cutoff: None,
            examine: None,
            reply: 1.0,
            extend: 1.0,
        }
    }
}

impl UctConfig {
    /// The visits a leaf needs before it gains children when the tree holds `used` nodes:
    /// [`expand_after`](Self::expand_after) while at least half of
    /// [`max_nodes`](Self::max_nodes) is free, then doubled for each halving of the room left.
    #[inline]
    pub(crate) fn expand_threshold(&self, used: usize) -> u32 {
        let room = self.max_nodes.saturating_sub(used).max(1);
        let halvings = (self.max_nodes / room).max(1).ilog2().min(32);
        (u64::from(self.expand_after) << halvings).min(u64::from(u32::MAX)) as u32
    }

    /// A reward `plies` moves before the end of its simulation, decayed by
    /// [`decay`](Self::decay) per ply (unchanged at the default of 1).
    #[inline]
    pub(crate) fn decayed(&self, reward: f64, plies: u32) -> f64 {
        if self.decay == 1.0 {
            reward
        } else {
            reward * self.decay.powi(plies as i32)
        }
    }

    /// The keys [`set`](Self::set) takes: `c`, `reuse`, `final` (`visits`, `mean` or `wins`),
    /// `expand` (`one` or `all`), `expand_after`, `decay`, `nodes`, `prove`, `k` (RAVE's
    /// equivalence parameter; above 0 turns RAVE on), `ref` (GRAVE's threshold), `skip_rave`
    /// (one selection in how many reads no AMAF statistics), `puct`,
    /// `fpu`, `bias` (RAVE's progressive bias), `cutoff` (plies), `examine` (visits), `reply`
    /// (the prior an advised reply gains) and `extend` (how far an unstable search may overrun
    /// its time).
    pub const KEYS: &[&str] = &[
        "c",
        "reuse",
        "final",
        "expand",
        "expand_after",
        "decay",
        "nodes",
        "prune",
        "prove",
        "k",
        "ref",
        "skip_rave",
        "puct",
        "fpu",
        "bias",
        "cutoff",
        "examine",
        "reply",
        "extend",
    ];

    /// RAVE's settings, to change: RAVE turned on ([`RaveConfig::RAVE`]) if it was off.
    fn rave_mut(&mut self) -> &mut RaveConfig {
        self.rave.get_or_insert(RaveConfig::RAVE)
    }

    /// RAVE's settings, to change by `setting`, a key only RAVE has: an error when RAVE is off.
    fn rave_only(&mut self, setting: Setting<'_>) -> Result<&mut RaveConfig, SettingError> {
        self.rave
            .as_mut()
            .ok_or_else(|| setting.bad("a setting of RAVE, which is off (set k first)"))
    }

    /// The progressive bias of RAVE's selection, when RAVE is on and has one.
    #[inline]
    pub(crate) fn bias(&self) -> Option<f64> {
        self.rave.and_then(|rave| rave.bias)
    }

    /// Sets one setting from text, as agent specs write it: `set("c", "0.3")`.
    ///
    /// # Errors
    ///
    /// [`SettingError::UnknownKey`] for a key not in [`KEYS`](Self::KEYS) and
    /// [`SettingError::BadValue`] for a value that does not fit; the config is unchanged.
    ///
    /// ```
    /// use search::UctConfig;
    ///
    /// let mut config = UctConfig::default();
    /// config.set("c", "0.3")?;
    /// config.set("final", "mean")?;
    /// assert_eq!(config.exploration, 0.3);
    /// assert!(config.set("decay", "2").is_err());
    /// # Ok::<(), search::SettingError>(())
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SettingError> {
        let setting = Setting::new(key, value);
        match key {
            "c" => {
                self.exploration = setting.number_where(|c| c >= 0.0, "a number of at least 0")?;
            }
            "reuse" => self.reuse = setting.flag()?,
            "final" => {
                self.final_choice = setting.choice(&[
                    ("visits", FinalChoice::MostVisits),
                    ("mean", FinalChoice::BestMean),
                    ("wins", FinalChoice::MostWins),
                ])?;
            }
            "expand" => {
                self.expansion =
                    setting.choice(&[("one", Expansion::One), ("all", Expansion::All)])?;
            }
            "expand_after" => self.expand_after = setting.whole(1, u32::MAX)?,
            "decay" => {
                self.decay =
                    setting.number_where(|d| d > 0.0 && d <= 1.0, "a number above 0, at most 1")?;
            }
            // Node ids are 32 bits.
            "nodes" => self.max_nodes = setting.whole(1, u32::MAX - 1)? as usize,
            "prove" => self.prove = setting.flag()?,
            "prune" => self.prune = setting.flag()?,
            "k" => self.rave_mut().k = setting.number_where(|k| k > 0.0, "a number above 0")?,
            "ref" => self.rave_only(setting)?.grave = Some(setting.whole(1, u32::MAX)?),
            "skip_rave" => {
                self.rave_only(setting)?.skip =
                    Some(setting.whole(0, u32::MAX)?).filter(|&n| n > 0);
            }
            "puct" => self.puct = setting.number_where(|c| c > 0.0, "a number above 0")?,
            "fpu" => {
                self.fpu =
                    setting.number_where(|f| (0.0..=1.0).contains(&f), "a number from 0 to 1")?;
            }
            "bias" => {
                let bias = setting.number_where(|b| b >= 0.0, "a number of at least 0")?;
                self.rave_only(setting)?.bias = Some(bias).filter(|&b| b > 0.0);
            }
            "cutoff" => self.cutoff = Some(setting.whole(0, u32::MAX)?),
            "examine" => self.examine = Some(setting.whole(0, u32::MAX)?).filter(|&n| n > 0),
            "reply" => self.reply = setting.number_where(|r| r >= 0.0, "a number of at least 0")?,
            "extend" => {
                self.extend =
                    setting.number_where(|e| (1.0..=10.0).contains(&e), "a number from 1 to 10")?;
            }
            _ => return Err(setting.unknown(Self::KEYS)),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::UctConfig;

    #[test]
    fn the_expansion_threshold_doubles_for_each_halving_of_the_room_left() {
        let config = |expand_after| UctConfig {
            expand_after,
            max_nodes: 1000,
            ..UctConfig::default()
        };
        let one = config(1);
        // (nodes used, threshold): half the cap free or more, then each halving of the room.
        for (used, threshold) in [(0, 1), (499, 1), (500, 2), (749, 2), (750, 4), (875, 8)] {
            assert_eq!(one.expand_threshold(used), threshold, "{used} nodes used");
        }
        // No room at all: 1000 times less than the whole, nine halvings.
        assert_eq!(one.expand_threshold(1000), 512);
        assert_eq!(one.expand_threshold(5000), 512);
        assert_eq!(config(3).expand_threshold(900), 24);
        assert_eq!(config(u32::MAX).expand_threshold(999), u32::MAX);
    }
}
