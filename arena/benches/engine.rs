//! Speed of the All Fives engine alone: random legal play through its public
//! API, one core, no processes.
//!
//! - `all_fives/plays/N`: a batch of plays in games of N players, starting a
//!   new game (next seed) whenever one ends; reads as plays per second.
//! - `all_fives/games/N`: a fixed set of whole games of N players; reads as
//!   games per second.
//!
//! Each move is chosen uniformly among the legal moves by a small seeded
//! generator, so every run plays the same games. The moves are counted with
//! `AllFives::legal_count`; the arena's `Game::choices` lists them too, with
//! each move's points, which costs more than the play itself.

use arena::game::Game;
use arena::games::all_fives::AllFives;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// Plays per measured iteration of the `plays` benchmarks.
const PLAYS: u64 = 10_000;
/// Games per measured iteration of the `games` benchmarks.
const GAMES: u64 = 20;

/// SplitMix64: a tiny, fast, seeded generator for choosing moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (multiply-high; the bias is below 2^-58 for the small `n` here).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// The rules in force.
type Variant = <AllFives as Game>::Variant;

/// The default variant for `players`.
fn variant(players: usize) -> Variant {
    AllFives::parse_variant(&[("players".to_string(), players.to_string())]).expect("a valid variant")
}

/// Plays one uniformly chosen legal move; false when the game is over.
fn random_play(game: &mut AllFives, rng: &mut SplitMix) -> bool {
    if game.to_act().is_none() {
        return false;
    }
    let legal = game.legal_count();
    game.play(rng.below(legal)).expect("a legal index");
    true
}

/// Plays `count` random moves, starting new games as needed.
fn play_batch(game: &mut AllFives, seed: &mut u64, rng: &mut SplitMix, variant: &Variant, count: u64) {
    for _ in 0..count {
        if !random_play(game, rng) {
            *seed += 1;
            *game = AllFives::new(variant, *seed);
            random_play(game, rng);
        }
    }
}

/// Plays whole games with seeds `0..count` and returns the number of plays.
fn play_games(variant: &Variant, count: u64) -> u64 {
    let mut plays = 0;
    for seed in 0..count {
        let mut game = AllFives::new(variant, seed);
        let mut rng = SplitMix(seed);
        while random_play(&mut game, &mut rng) {
            plays += 1;
        }
        black_box(game.outcome());
    }
    plays
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("all_fives");
    for players in 2..=4 {
        group.throughput(Throughput::Elements(PLAYS));
        group.bench_function(BenchmarkId::new("plays", players), |b| {
            let variant = variant(players);
            let mut seed = 0;
            let mut game = AllFives::new(&variant, seed);
            let mut rng = SplitMix(1);
            b.iter(|| play_batch(&mut game, &mut seed, &mut rng, &variant, PLAYS));
        });
    }
    for players in 2..=4 {
        group.throughput(Throughput::Elements(GAMES));
        let variant = variant(players);
        group.bench_function(BenchmarkId::new("games", players), |b| b.iter(|| play_games(&variant, GAMES)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = engine
}
criterion_main!(benches);
