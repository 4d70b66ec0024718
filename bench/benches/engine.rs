//! Speed of the game engines alone: random legal play through their public
//! API, one core, no processes.
//!
//! - `all_fives/plays/N`, `leduc/plays/N`: a batch of plays (for Leduc,
//!   actions) in games of N players, starting a new game (next seed) whenever
//!   one ends, so dealing is included; reads as plays per second.
//! - `all_fives/games/N`, `leduc/games/N`: a fixed set of whole games of N
//!   players; reads as games per second.
//!
//! Each move is chosen uniformly among the legal moves by a small seeded
//! generator, so every run plays the same games. The moves are counted with
//! each engine's `legal_count`; the arena's `Game::choices` lists them too,
//! with more detail, which costs more than the play itself.

use all_fives::AllFives;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use game::Game;
use leduc::Leduc;
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

/// An engine with a fast count of the legal moves.
trait Counted: Game {
    /// How many legal moves the seat to act has.
    fn count(&self) -> usize;
}

impl Counted for AllFives {
    fn count(&self) -> usize {
        self.legal_count()
    }
}

impl Counted for Leduc {
    fn count(&self) -> usize {
        self.legal_count()
    }
}

/// The default variant of `G` for `players`.
fn variant<G: Game>(players: usize) -> G::Variant {
    G::parse_variant(&[("players".to_string(), players.to_string())]).expect("a valid variant")
}

/// Plays one uniformly chosen legal move; false when the game is over.
fn random_play<G: Counted>(game: &mut G, rng: &mut SplitMix) -> bool {
    if game.to_act().is_none() {
        return false;
    }
    let legal = game.count();
    game.play(rng.below(legal)).expect("a legal index");
    true
}

/// Plays `count` random moves, starting new games as needed.
fn play_batch<G: Counted>(game: &mut G, seed: &mut u64, rng: &mut SplitMix, variant: &G::Variant, count: u64) {
    for _ in 0..count {
        if !random_play(game, rng) {
            *seed += 1;
            *game = G::new(variant, *seed);
            random_play(game, rng);
        }
    }
}

/// Plays whole games with seeds `0..count` and returns the number of plays.
fn play_games<G: Counted>(variant: &G::Variant, count: u64) -> u64 {
    let mut plays = 0;
    for seed in 0..count {
        let mut game = G::new(variant, seed);
        let mut rng = SplitMix(seed);
        while random_play(&mut game, &mut rng) {
            plays += 1;
        }
        black_box(game.outcome());
    }
    plays
}

/// The `plays` and `games` benchmarks of engine `G`, as group `name`.
fn bench_engine<G: Counted>(c: &mut Criterion, name: &str) {
    let mut group = c.benchmark_group(name);
    for players in 2..=4 {
        group.throughput(Throughput::Elements(PLAYS));
        group.bench_function(BenchmarkId::new("plays", players), |b| {
            let variant = variant::<G>(players);
            let mut seed = 0;
            let mut game = G::new(&variant, seed);
            let mut rng = SplitMix(1);
            b.iter(|| play_batch(&mut game, &mut seed, &mut rng, &variant, PLAYS));
        });
    }
    for players in 2..=4 {
        group.throughput(Throughput::Elements(GAMES));
        let variant = variant::<G>(players);
        group.bench_function(BenchmarkId::new("games", players), |b| b.iter(|| play_games::<G>(&variant, GAMES)));
    }
    group.finish();
}

fn engine(c: &mut Criterion) {
    bench_engine::<AllFives>(c, "all_fives");
    bench_engine::<Leduc>(c, "leduc");
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = engine
}
criterion_main!(benches);
