//! Property tests of the line codec: arbitrary `FromBot` and `ToBot`
//! messages encode to one line, with no newline inside, that decodes back to
//! an equal message.

use all_fives::wire::{
    Choice, DealSize, Draw, End, FromBot, HandEnd, HandEndRule, HandOver, HandStart, Move, Pass, Play, State, Tile,
    ToBot, Variant,
};
use proptest::prelude::*;
use protocol::invariants::round_trip;
use protocol::messages::{Forfeit, GameEnd, GameStart, Hello, MoveReply, Ready, Turn};

/// Any text: control characters, newlines, quotes and non-ASCII included.
fn text() -> impl Strategy<Value = String> {
    prop::string::string_regex("(?s).{0,12}").expect("a valid regex")
}

fn tiles() -> impl Strategy<Value = Vec<Tile>> {
    prop::collection::vec(any::<Tile>(), 0..6)
}

fn small<T: std::fmt::Debug + Clone>(items: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(items, 0..5)
}

fn from_bot() -> impl Strategy<Value = FromBot> {
    let ready = (text(), prop::option::of(text()), prop::option::of(text()), any::<Option<u32>>()).prop_map(
        |(name, version, author, protocol)| {
            FromBot::Ready(Ready { name, version, author, protocol, games: None, any_seat: false })
        },
    );
    let reply = (any::<u64>(), any::<Option<usize>>(), prop::option::of((any::<Tile>(), any::<Option<u8>>())))
        .prop_map(|(id, index, value)| {
            FromBot::Move(MoveReply { id, index, value: value.map(|(tile, end)| Move { tile, end }) })
        });
    prop_oneof![ready, reply]
}

fn variants() -> impl Strategy<Value = Variant> {
    (any::<usize>(), any::<bool>(), 0usize..3, any::<usize>(), any::<bool>(), any::<i64>(), any::<u32>()).prop_map(
        |(players, partners, deal, boneyard_keep, winner_takes, target, max_hands)| Variant {
            players,
            partners,
            deal: [DealSize::Standard, DealSize::Five, DealSize::SevenFive][deal],
            boneyard_keep,
            hand_end: if winner_takes { HandEndRule::WinnerTakes } else { HandEndRule::SubtractOwn },
            target,
            max_hands,
        },
    )
}

fn hello() -> impl Strategy<Value = ToBot> {
    let numbers = (any::<u32>(), any::<usize>(), any::<usize>(), any::<u64>(), any::<u64>());
    (variants(), text(), text(), small(small(any::<usize>())), numbers).prop_map(
        |(variant, game, name, teams, (protocol, seat, seats, move_timeout_ms, startup_timeout_ms))| {
            ToBot::Hello(Hello {
                protocol,
                game,
                variant,
                seat,
                seats,
                teams,
                name,
                move_timeout_ms,
                startup_timeout_ms,
            })
        },
    )
}

fn events() -> impl Strategy<Value = ToBot> {
    let hand_start =
        (any::<u32>(), any::<usize>(), tiles(), small(any::<usize>()), any::<usize>(), small(any::<i64>())).prop_map(
            |(hand, leader, tiles, hand_sizes, boneyard, scores)| {
                ToBot::HandStart(HandStart { hand, leader, tiles, hand_sizes, boneyard, scores })
            },
        );
    let play = (any::<usize>(), any::<Tile>(), any::<Option<u8>>(), any::<u32>(), small(any::<i64>()))
        .prop_map(|(seat, tile, end, points, scores)| ToBot::Play(Play { seat, tile, end, points, scores }));
    let draw = (any::<usize>(), any::<usize>(), prop::option::of(tiles()))
        .prop_map(|(seat, count, tiles)| ToBot::Draw(Draw { seat, count, tiles }));
    let pass = any::<usize>().prop_map(|seat| ToBot::Pass(Pass { seat }));
    let reason = prop::sample::select(vec![HandOver::Out, HandOver::Blocked, HandOver::Target]);
    let numbers = (small(any::<u32>()), small(any::<i64>()), small(any::<i64>()));
    let hand_end = (any::<u32>(), reason, any::<Option<usize>>(), small(tiles()), numbers).prop_map(
        |(hand, reason, out, hands, (pips, changes, scores))| {
            ToBot::HandEnd(HandEnd { hand, reason, out, hands, pips, changes, scores })
        },
    );
    prop_oneof![hand_start, play, draw, pass, hand_end]
}

fn turn() -> impl Strategy<Value = ToBot> {
    let end = (any::<u8>(), any::<u8>(), any::<u32>()).prop_map(|(id, pips, counts)| End { id, pips, counts });
    let sizes = (any::<usize>(), any::<usize>());
    let state = (any::<u32>(), tiles(), small(end), small(any::<i64>()), small(any::<usize>()), sizes).prop_map(
        |(hand_number, hand, ends, scores, hand_sizes, (boneyard, drawable))| State {
            hand_number,
            hand,
            ends,
            scores,
            hand_sizes,
            boneyard,
            drawable,
        },
    );
    let choice =
        (any::<Tile>(), any::<Option<u8>>(), any::<u32>()).prop_map(|(tile, end, points)| Choice { tile, end, points });
    let clock = any::<Option<(u64, u64)>>();
    (any::<u64>(), any::<u64>(), state, small(choice), clock).prop_map(|(id, time_ms, state, legal, clock)| {
        ToBot::Turn(Turn {
            id,
            time_ms,
            clock_ms: clock.map(|(left, _)| left),
            increment_ms: clock.map(|(_, increment)| increment),
            state,
            legal,
        })
    })
}

fn to_bot() -> impl Strategy<Value = ToBot> {
    let game_start = (any::<u64>(), any::<u64>(), any::<usize>())
        .prop_map(|(id, seed, seat)| ToBot::GameStart(GameStart { id, seed, seat }));
    let forfeit = (any::<usize>(), text()).prop_map(|(seat, kind)| Forfeit { seat, kind });
    let game_end = (any::<u64>(), text(), small(any::<i64>()), small(any::<u32>()), small(forfeit)).prop_map(
        |(id, reason, scores, ranks, forfeits)| ToBot::GameEnd(GameEnd { id, reason, scores, ranks, forfeits }),
    );
    prop_oneof![hello(), game_start, events(), turn(), game_end, Just(ToBot::Bye)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn from_bot_messages_are_one_line_and_decode_back(message in from_bot()) {
        round_trip(&message);
    }

    #[test]
    fn to_bot_messages_are_one_line_and_decode_back(message in to_bot()) {
        round_trip(&message);
    }
}
