#!/usr/bin/env python3
"""A tiny policy-and-value network, trained with numpy alone on self-play games of our MCTS
with the network inside it, then played against the same search without it.

    python crates/python/examples/train_tiny.py                 # Connect Four, about a minute
    python crates/python/examples/train_tiny.py --game othello --size 6 --rounds 6
    python crates/python/examples/train_tiny.py --quick          # a few seconds

Each round plays self-play games with ``Agent(game, "uct:iterations=N", evaluator=net)``:
the search asks the network for priors and values in batches, the visit counts of each
search become the policy target and the game's result the value target, and the network
trains on them. The same loop works with PyTorch or JAX: any callable
``evaluator(observations, legal) -> (priors, values)`` plugs in.

At the end the trained network plays against the search with no knowledge
(``evaluator="uniform"``: uniform priors, even values) and against plain UCT with random
playouts, both at the same iterations a move, colours alternating. ``--save`` keeps the
weights (``.npz``), ``--load`` starts from them.
"""

import argparse
import math
import time

import numpy as np

import gamesearch


class TinyNet:
    """One hidden layer; a policy head over the game's actions and a value head in -1..1."""

    def __init__(self, inputs, actions, hidden=64, seed=0):
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": rng.normal(0, math.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "wp": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32),
            "bp": np.zeros(actions, np.float32),
            "wv": rng.normal(0, 0.01, (hidden, 1)).astype(np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0
        self.calls = 0

    def forward(self, x):
        p = self.params
        pre = x @ p["w1"] + p["b1"]
        h = np.maximum(pre, 0)
        logits = h @ p["wp"] + p["bp"]
        value = np.tanh(h @ p["wv"] + p["bv"])[:, 0]
        return pre, h, logits, value

    def __call__(self, observations, legal):
        """The evaluator protocol: observations [B,3,R,C], legal [B,A] -> priors, values."""
        self.calls += 1
        _, _, logits, value = self.forward(observations.reshape(len(observations), -1))
        logits = np.where(legal, logits, -np.inf)
        priors = np.exp(logits - logits.max(axis=1, keepdims=True))
        return priors, value

    def train(self, x, policy, z, legal, epochs=10, batch=128, lr=3e-3, seed=0):
        """Adam on cross-entropy (policy, over the legal actions) plus squared error (value)."""
        rng = np.random.default_rng(seed)
        n = len(x)
        losses = []
        for _ in range(epochs):
            order = rng.permutation(n)
            for start in range(0, n, batch):
                i = order[start:start + batch]
                losses.append(self.step(x[i], policy[i], z[i], legal[i], lr))
        return float(np.mean(losses[-max(1, len(losses) // epochs):]))

    def step(self, x, policy, z, legal, lr):
        p = self.params
        m = len(x)
        pre, h, logits, value = self.forward(x)
        logits = np.where(legal, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        soft = np.exp(logits)
        soft /= soft.sum(axis=1, keepdims=True)
        loss = -np.sum(policy * np.log(soft + 1e-9)) / m + np.mean((value - z) ** 2)
        # Gradients, by hand: softmax cross-entropy and tanh squared error.
        d_logits = (soft - policy) / m
        d_value = (2 * (value - z) * (1 - value ** 2) / m)[:, None]
        grads = {
            "wp": h.T @ d_logits, "bp": d_logits.sum(0),
            "wv": h.T @ d_value, "bv": d_value.sum(0),
        }
        d_h = (d_logits @ p["wp"].T + d_value @ p["wv"].T) * (pre > 0)
        grads["w1"] = x.T @ d_h
        grads["b1"] = d_h.sum(0)
        self.steps += 1
        for k, g in grads.items():
            first, second = self.moments[k]
            first[:] = 0.9 * first + 0.1 * g
            second[:] = 0.999 * second + 0.001 * g * g
            hat1 = first / (1 - 0.9 ** self.steps)
            hat2 = second / (1 - 0.999 ** self.steps)
            p[k] -= (lr * hat1 / (np.sqrt(hat2) + 1e-8)).astype(np.float32)
        return loss

    def save(self, path):
        np.savez(path, **self.params)

    def load(self, path):
        with np.load(path) as saved:
            for k in self.params:
                if saved[k].shape != self.params[k].shape:
                    raise SystemExit(f"{path}: {k} has shape {saved[k].shape}, "
                                     f"expected {self.params[k].shape} for this game")
                self.params[k] = saved[k].astype(np.float32)


def self_play(game, net, games, iterations, seed):
    """Games of the search with the network against itself: inputs and targets."""
    actions = game.num_distinct_actions()
    xs, policies, legals, movers, ends = [], [], [], [], []
    rng = np.random.default_rng(seed)
    for g in range(games):
        agent = gamesearch.Agent(game, f"uct:iterations={iterations}", seed=seed * 1000 + g,
                                 evaluator=net, batch=16)
        state = game.new_initial_state()
        first = len(xs)
        while not state.is_terminal():
            report = agent.analyse(state)
            visits = np.zeros(actions, np.float32)
            for move in report.moves:
                visits[move.action] = move.visits
            legal = np.zeros(actions, bool)
            legal[state.legal_actions()] = True
            xs.append(state.observation_tensor().reshape(-1))
            policies.append(visits / visits.sum())
            legals.append(legal)
            movers.append(state.current_player())
            # The first moves follow the visits, for variety; then the most visited.
            if state.move_number() < 6:
                action = int(rng.choice(actions, p=visits / visits.sum()))
            else:
                action = report.action
            state.apply_action(action)
        returns = state.returns()
        ends.extend(returns[p] for p in movers[first:])
    return (np.array(xs, np.float32), np.array(policies), np.array(ends, np.float32),
            np.array(legals))


def match(game, net, opponent_spec, opponent_evaluator, games, iterations, seed):
    """The network's search against `opponent`, colours alternating: its score."""
    score = 0.0
    for g in range(games):
        ours = gamesearch.Agent(game, f"uct:iterations={iterations}", seed=seed + g,
                                evaluator=net, batch=16)
        theirs = gamesearch.Agent(game, opponent_spec, seed=seed + g + 10_000,
                                  evaluator=opponent_evaluator, batch=16)
        state = game.new_initial_state()
        ours_player = g % 2
        while not state.is_terminal():
            agent = ours if state.current_player() == ours_player else theirs
            state.apply_action(agent.step(state))
        score += (state.returns()[ours_player] + 1) / 2
    return score


def wilson(score, n, z=1.96):
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4", choices=["connect4", "othello", "hex",
                                                               "tictactoe"])
    parser.add_argument("--size", type=int, help="othello 6 or 8, hex 1-19")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=100, help="self-play games a round")
    parser.add_argument("--iterations", type=int, default=200, help="search iterations a move")
    parser.add_argument("--match-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the weights to this .npz file")
    parser.add_argument("--load", help="start from these weights (.npz)")
    parser.add_argument("--quick", action="store_true", help="tiny settings, to see it run")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.games, args.iterations, args.match_games = 1, 4, 50, 2
    if min(args.rounds, args.games, args.iterations, args.match_games) < 1:
        parser.error("--rounds, --games, --iterations and --match-games must be at least 1")

    params = {"size": args.size} if args.size else {}
    game = gamesearch.load_game(args.game, **params)
    inputs = int(np.prod(game.observation_tensor_shape()))
    net = TinyNet(inputs, game.num_distinct_actions(), seed=args.seed)
    if args.load:
        net.load(args.load)
    print(f"{game}: a {inputs}-64-{game.num_distinct_actions()} network, "
          f"{args.iterations} iterations a move")
    clock = time.perf_counter()
    last = None
    for r in range(args.rounds):
        start = time.perf_counter()
        fresh = self_play(game, net, args.games, args.iterations, args.seed + r)
        # Train on this round's positions and the last round's: a small replay buffer.
        x, policy, z, legal = (fresh if last is None
                               else [np.concatenate(pair) for pair in zip(last, fresh)])
        last = fresh
        loss = net.train(x, policy, z, legal, seed=args.seed + r)
        print(f"round {r + 1}/{args.rounds}: {args.games} games, {len(x):,} positions, "
              f"loss {loss:.3f}, {time.perf_counter() - start:.1f} s", flush=True)
    if args.save:
        net.save(args.save)
        print(f"weights: {args.save}")
    n = args.match_games
    for label, spec, evaluator in [
        ("the same search without knowledge (evaluator=\"uniform\")",
         f"uct:iterations={args.iterations}", "uniform"),
        ("plain UCT with random playouts", f"uct:iterations={args.iterations},threads=1", None),
    ]:
        score = match(game, net, spec, evaluator, n, args.iterations, args.seed * 7919)
        low, high = wilson(score, n)
        print(f"against {label}: {score:g}/{n} = {100 * score / n:.0f}% "
              f"(95% interval {100 * low:.0f}-{100 * high:.0f}%)")
    print(f"{time.perf_counter() - clock:.0f} s in all; {net.calls:,} calls of the network")


if __name__ == "__main__":
    main()
