//! Property tests of the game record: random games (random seed, variant and
//! legal moves, sometimes cut short by a fault) are recorded the way a match
//! records them, written as one JSON line, read back with `output::scan` and
//! as a whole record, and re-checked by replaying the recorded plays from the
//! seed and from the recorded deals.

use all_fives::AllFives;
use all_fives::wire::{DealSize, HandEndRule, Variant};
use arena::bot::fault::FaultKind;
use arena::check::verify::{self, typed_result};
use arena::run::play::MoveTimes;
use arena::store::output;
use arena::store::record::{FaultRecord, GameRecord, RecordOf};
use game::Game;
use proptest::prelude::*;

/// Any valid variant, with targets and hand limits small enough for quick games.
fn variants() -> impl Strategy<Value = Variant> {
    (2usize..=4, any::<bool>(), 0usize..3, 0usize..=2, any::<bool>(), 1i64..=300, 1u32..=12).prop_map(
        |(players, partners, deal, boneyard_keep, winner_takes, target, max_hands)| Variant {
            players,
            partners: partners && players == 4,
            deal: [DealSize::Standard, DealSize::Five, DealSize::SevenFive][deal],
            boneyard_keep,
            hand_end: if winner_takes { HandEndRule::WinnerTakes } else { HandEndRule::SubtractOwn },
            target,
            max_hands,
        },
    )
}

/// Bot names and fault messages: any text, newlines and quotes included.
fn text() -> impl Strategy<Value = String> {
    prop::string::string_regex("(?s).{0,12}").expect("a valid regex")
}

/// What a random game is made of.
#[derive(Debug, Clone)]
struct Plan {
    variant: Variant,
    seed: u64,
    id: u64,
    /// Picks among the legal moves, used in turn.
    picks: Vec<u16>,
    /// Thinking times in microseconds, used in turn.
    times: Vec<u64>,
    /// The move before which the seat to act faults, if any, and the fault.
    fault: Option<(usize, FaultKind, String)>,
    bots: Vec<String>,
}

/// A fault before one of the first moves, in a quarter of the games.
fn faults() -> impl Strategy<Value = Option<(usize, FaultKind, String)>> {
    prop::option::weighted(0.25, (0usize..120, prop::sample::select(FaultKind::ALL.to_vec()), text()))
}

fn plans() -> impl Strategy<Value = Plan> {
    (variants(), any::<u64>(), any::<u64>(), prop::collection::vec(any::<u16>(), 1..40))
        .prop_flat_map(|(variant, seed, id, picks)| {
            let seats = variant.players;
            let bots = prop::collection::vec(text(), seats);
            (Just((variant, seed, id, picks)), prop::collection::vec(any::<u64>(), 1..8), faults(), bots)
        })
        .prop_map(|((variant, seed, id, picks), times, fault, bots)| Plan {
            variant,
            seed,
            id,
            picks,
            times,
            fault,
            bots,
        })
}

/// Plays the planned game and records it as `play::play_game` does.
fn record(plan: &Plan) -> RecordOf<AllFives> {
    let mut game = AllFives::new(&plan.variant, plan.seed);
    let mut times = MoveTimes::default();
    let mut faults = Vec::new();
    let mut moves = 0;
    while let Some(seat) = game.to_act() {
        if let Some((at, kind, message)) = &plan.fault
            && *at == moves
        {
            let stderr = vec![message.clone()];
            faults.push(FaultRecord {
                seat,
                bot: plan.bots[seat].clone(),
                kind: *kind,
                message: message.clone(),
                stderr,
            });
            break;
        }
        let index = usize::from(plan.picks[moves % plan.picks.len()]) % game.choices().len();
        let before = game.event_count();
        game.play(index).expect("a listed move");
        let time_us = plan.times[moves % plan.times.len()];
        times.note(before, time_us, index, (moves % 3 == 1).then_some(time_us / 3));
        moves += 1;
    }
    let faulted: Vec<usize> = faults.iter().map(|f| f.seat).collect();
    let seats = plan.variant.players;
    GameRecord {
        id: plan.id,
        game: AllFives::NAME.to_string(),
        engine: None,
        deal: plan.id / 2,
        arrangement: (plan.id % seats as u64) as usize,
        seed: plan.seed,
        preset: false,
        setup: None,
        variant: plan.variant.clone(),
        bots: plan.bots.clone(),
        bot_seeds: (0..seats as u64).map(|seat| plan.seed ^ seat).collect(),
        clock: plan
            .seed
            .is_multiple_of(2)
            .then_some(arena::schedule::clock::TimeControl { base_ms: plan.seed % 10_000 + 1, increment_ms: 5 }),
        seat_timing: plan.seed.is_multiple_of(3).then(|| {
            let timing = |seat: u64| arena::schedule::clock::Timing { move_timeout_ms: 100 + seat, clock: None };
            (0..seats as u64).map(timing).collect()
        }),
        events: times.attach(game.events()),
        result: typed_result(&game, &AllFives::teams(&plan.variant), &faulted),
        faults,
        duration_ms: plan.seed % 100_000,
    }
}

/// Checks that the record read back is exactly what the engine gives when
/// its deals and decisions are replayed (as `arena verify` does), and that
/// exactly the decisions carry a time.
fn recheck(record: &RecordOf<AllFives>) {
    let check = |record: &RecordOf<AllFives>| verify::check_built_in(&serde_json::to_string(record).unwrap()).unwrap();
    assert_eq!(check(record), vec![]);
    for (at, timed) in record.events.iter().enumerate() {
        let decision = AllFives::decision(&timed.event).is_some();
        assert_eq!(timed.time_us.is_some(), decision, "event {at}: a time exactly on decisions");
    }
    let mut preset = record.clone();
    preset.preset = true;
    assert_eq!(check(&preset), vec![], "replayed from its recorded deals");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn records_survive_the_file_and_replay(plan in plans()) {
        let first = record(&plan);
        let mut second = first.clone();
        second.id = first.id.wrapping_add(1);
        let mut file = Vec::new();
        let mut lines = Vec::new();
        for record in [&first, &second] {
            let line = serde_json::to_string(record).expect("a record serializes");
            prop_assert!(!line.contains('\n'), "one line per record");
            file.extend_from_slice(line.as_bytes());
            file.push(b'\n');
            lines.push(line);
        }

        let scan = output::scan(file.as_slice(), "games.jsonl").expect("the file scans");
        prop_assert_eq!(&scan.games, &vec![first.summary(), second.summary()]);
        prop_assert_eq!(scan.good_bytes, file.len() as u64);
        prop_assert_eq!(scan.total_bytes, file.len() as u64);
        prop_assert_eq!(&scan.spans, &vec![(0, lines[0].len()), (lines[0].len() as u64 + 1, lines[1].len())]);

        for (record, line) in [&first, &second].into_iter().zip(&lines) {
            let back: RecordOf<AllFives> = serde_json::from_str(line).expect("a record reads back");
            prop_assert_eq!(&back, record);
            recheck(&back);
        }
    }
}
