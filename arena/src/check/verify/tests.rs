use super::*;
use crate::bot::fault::FaultKind;
use crate::run::play::MoveTimes;
use crate::store::record::{FaultRecord, GameRecord, RecordOf};
use all_fives::{AllFives, Event};

/// A record of a game between two seats that always play their last legal
/// move, set up from `seed`, exactly as a match records it.
fn played(seed: u64) -> RecordOf<AllFives> {
    let variant = AllFives::parse_variant(&[]).expect("the default variant");
    let mut game = AllFives::new(&variant, seed);
    let mut times = MoveTimes::default();
    while game.to_act().is_some() {
        let before = game.event_count();
        let index = game.legal_count() - 1;
        game.play(index).expect("a legal move");
        times.note(before, 10, index, None);
    }
    GameRecord {
        id: 7,
        game: AllFives::NAME.to_string(),
        engine: None,
        deal: 3,
        arrangement: 1,
        seed,
        preset: false,
        setup: None,
        variant: variant.clone(),
        bots: vec!["a".into(), "b".into()],
        bot_seeds: vec![1, 2],
        clock: None,
        seat_timing: None,
        events: times.attach(game.events()),
        result: typed_result(&game, &AllFives::teams(&variant), &[]),
        faults: Vec::new(),
        duration_ms: 5,
    }
}

/// Every disagreement between `record` and its replay through the game's engine.
fn check(record: &RecordOf<AllFives>) -> Vec<Disagreement> {
    check_built_in(&serde_json::to_string(record).expect("records serialize")).expect("a built-in game")
}

/// The index of the first event matching `pick`.
fn first(record: &RecordOf<AllFives>, pick: impl Fn(&Event) -> bool) -> usize {
    record.events.iter().position(|timed| pick(&timed.event)).expect("such an event")
}

#[test]
fn a_faithful_record_agrees() {
    for seed in 0..20 {
        assert_eq!(check(&played(seed)), vec![], "seed {seed}");
    }
}

#[test]
fn a_preset_record_replays_from_its_recorded_deals() {
    let mut record = played(5);
    record.preset = true;
    record.seed = 0; // not used for a preset game
    assert_eq!(check(&record), vec![]);
}

#[test]
fn an_edited_hand_end_score_is_caught_at_its_event() {
    let mut record = played(1);
    let at = first(&record, |e| matches!(e, Event::HandEnd(_)));
    let Event::HandEnd(end) = &mut record.events[at].event else { unreachable!() };
    end.scores[0] += 5;
    let found = check(&record);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].event, Some(at));
    assert!(found[0].message.starts_with("scores: recorded ["), "{}", found[0].message);
}

#[test]
fn an_edited_tile_is_caught_at_its_event() {
    let mut record = played(2);
    let at = first(&record, |e| matches!(e, Event::Play(_)));
    let Event::Play(play) = &mut record.events[at].event else { unreachable!() };
    play.tile = if play.tile == [6, 6] { [0, 0] } else { [6, 6] };
    let found = check(&record);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].event, Some(at));
    assert!(found[0].message.contains("cannot play"), "{}", found[0].message);
}

#[test]
fn an_edited_deal_of_a_seeded_game_is_caught_at_the_hand_start() {
    let mut record = played(3);
    let Event::HandStart(dealt) = &mut record.events[0].event else { panic!("a game starts with a deal") };
    dealt.hands[0].swap(0, 1);
    let found = check(&record);
    assert_eq!(found[0].event, Some(0), "{found:?}");
    assert!(found[0].message.starts_with("hands: recorded"), "{}", found[0].message);
}

#[test]
fn an_edited_result_is_caught() {
    let mut record = played(4);
    record.result.ranks.reverse();
    record.result.reason = "forfeit".into();
    let found = check(&record);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].event, None);
    assert!(found[0].message.starts_with("result: ranks: recorded"), "{}", found[0].message);
    assert!(found[0].message.contains("reason: recorded \"forfeit\""), "{}", found[0].message);
}

#[test]
fn a_cut_record_needs_a_fault_to_explain_it() {
    let mut record = played(6);
    let at = first(&record, |e| matches!(e, Event::Play(_))) + 3;
    record.events.truncate(at);
    assert!(check(&record).iter().any(|d| d.message.contains("no fault ends it")));
    let seat = match &record.events[at - 1].event {
        Event::Play(play) => 1 - play.seat,
        _ => 0,
    };
    record.faults.push(FaultRecord {
        seat,
        bot: record.bots[seat].clone(),
        kind: FaultKind::Timeout,
        message: "no answer".into(),
        stderr: Vec::new(),
    });
    let faulted = check(&record);
    assert!(faulted.iter().all(|d| !d.message.contains("no fault ends it")), "{faulted:?}");
    assert!(faulted.iter().any(|d| d.message.starts_with("result: ")), "the result must become a forfeit: {faulted:?}");
}

#[test]
fn extra_events_and_impossible_variants_are_caught() {
    let mut record = played(8);
    let extra = record.events[1].clone();
    record.events.push(extra);
    let found = check(&record);
    assert!(found.iter().any(|d| d.message.contains("the record goes on for 1 events")), "{found:?}");

    let mut record = played(9);
    record.variant.players = 5;
    let found = check(&record);
    assert_eq!(found.len(), 1);
    assert!(found[0].message.starts_with("the variant cannot be played"), "{}", found[0].message);
}

/// Whether `record` is proven to agree with the game's engine on the quick
/// road alone (without the replay that says what differs).
fn proven(record: &RecordOf<AllFives>) -> bool {
    let text = serde_json::to_string(record).expect("records serialize");
    let engine = Engine::built_in(AllFives::NAME).expect("a built-in game");
    let mut link = engine.built_in_game().expect("a built-in engine").server();
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime without drivers starts");
    runtime.block_on(quick::agrees(&engine, link.as_mut(), &text)).expect("a built-in engine does not fail")
}

#[test]
fn a_faithful_record_is_proven_on_the_quick_road_and_an_edited_one_is_not() {
    assert!(proven(&played(3)));
    let mut preset = played(5);
    preset.preset = true;
    assert!(proven(&preset));
    let mut edited = played(1);
    let at = first(&edited, |e| matches!(e, Event::HandEnd(_)));
    let Event::HandEnd(end) = &mut edited.events[at].event else { unreachable!() };
    end.scores[0] += 5;
    assert!(!proven(&edited));
}

#[test]
fn a_recorded_event_is_the_engines_with_its_move_spliced_in_as_a_run_writes_it() {
    let engine = r#"{"type":"play","seat":1}"#;
    let spliced = quick::Spliced::read(r#"{"type":"play","seat":1,"time_us":10,"choice":2,"clock_us":7}"#);
    assert!(spliced.is(engine));
    assert_eq!(spliced.choice, Some(2));
    assert!(quick::Spliced::read(r#"{"choice":0}"#).is("{}"));
    assert!(quick::Spliced::read(engine).is(engine));
    for other in [
        r#"{"type":"play","seat":2,"time_us":10,"choice":2}"#,
        r#"{"type":"play","seat":1,"choice":2,"time_us":10}"#,
        r#"{"type":"play","seat":1,"time_us":010,"choice":2}"#,
        r#"{"type":"play","seat":1,"time_us":10,"choice":2,"choice":2}"#,
        r#"{"type":"play","seat":1, "time_us":10}"#,
        r#"{"type":"play","seat":1,"time_us":-1}"#,
    ] {
        assert!(!quick::Spliced::read(other).is(engine), "{other}");
    }
}
