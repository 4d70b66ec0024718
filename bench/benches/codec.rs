//! Speed of the line codec on the two lines of every move: encoding a typical
//! `turn` request (about 300 bytes) and decoding a typical `move` reply (about
//! 40 bytes, by index or by value). Reads as lines per second.

use all_fives::wire::{Choice, End, FromBot, State, ToBot};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use protocol::line;
use protocol::messages::Turn;
use std::hint::black_box;
use std::time::Duration;

/// A mid-hand `turn` of a two-player game (like the one in engines/all-fives/PROTOCOL.md's transcript).
fn turn() -> ToBot {
    ToBot::Turn(Turn {
        id: 12,
        time_ms: 1000,
        clock_ms: None,
        increment_ms: None,
        state: State {
            hand_number: 3,
            hand: vec![[0, 3], [0, 4], [1, 3], [3, 3], [4, 6]],
            ends: vec![End { id: 0, pips: 0, counts: 0 }, End { id: 1, pips: 6, counts: 6 }],
            scores: vec![45, 30],
            hand_sizes: vec![5, 5],
            boneyard: 12,
            drawable: 12,
        },
        legal: vec![
            Choice { tile: [0, 3], end: Some(0), points: 0 },
            Choice { tile: [0, 4], end: Some(0), points: 10 },
        ],
    })
}

/// The replies a bot sends: by index, and by value.
const MOVE_BY_INDEX: &[u8] = br#"{"type":"move","id":12,"index":1}"#;
const MOVE_BY_VALUE: &[u8] = br#"{"type":"move","id":12,"move":{"tile":[4,0],"end":0}}"#;

fn codec(c: &mut Criterion) {
    let mut group = c.benchmark_group("codec");
    group.throughput(Throughput::Elements(1));
    let turn = turn();
    let mut out = Vec::with_capacity(512);
    line::encode_into(&turn, &mut out);
    assert!((250..350).contains(&out.len()), "a typical turn line: {} bytes", out.len());
    group.bench_function("encode_turn", |b| {
        b.iter(|| {
            out.clear();
            line::encode_into(black_box(&turn), &mut out);
            black_box(out.len())
        });
    });
    for (name, reply) in [("decode_move_index", MOVE_BY_INDEX), ("decode_move_value", MOVE_BY_VALUE)] {
        assert!(line::decode::<FromBot>(reply).is_ok(), "{name}");
        group.bench_function(name, |b| b.iter(|| line::decode::<FromBot>(black_box(reply)).expect("a valid reply")));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = codec
}
criterion_main!(benches);
