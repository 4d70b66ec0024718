#!/usr/bin/env node
// kuhn.js: a sample Kuhn poker bot for the bot arena (Node, standard library only),
// for OpenSpiel's kuhn_poker served by engines/openspiel/bridge.py.
//
// A rule of thumb: with the king (card 2) it bets, and calls a bet; with the
// queen it checks, and calls a bet; with the jack it checks, and folds to a
// bet. It beats random play, and never bluffs.
//
// Run it in a league:
//     target/release/arena league --engine "python3 engines/openspiel/bridge.py kuhn_poker" \
//         --bot rules="node sample-bots/js/kuhn.js" --bot random="python3 sample-bots/python/random_any.py"
//
// Each turn's state is {player, information_state}: the information state
// is OpenSpiel's string, the seat's card first ("0" J, "1" Q, "2" K), then
// the actions so far ("p" pass, "b" bet). The choices are OpenSpiel's legal
// actions, each {action, name}, "Pass" or "Bet". Log to stderr, never to stdout.
"use strict";
const readline = require("readline");

const NAME = "kuhn-js";

// The index in `legal` of the choice to play.
function choose(state, legal) {
  const [card, history] = [state.information_state[0], state.information_state.slice(1)];
  const facingBet = history.endsWith("b");
  const wanted = card === "2" || (card === "1" && facingBet) ? "Bet" : "Pass";
  const index = legal.findIndex((choice) => choice.name === wanted);
  return index >= 0 ? index : 0;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === "hello") {
    console.log(JSON.stringify({ type: "ready", name: NAME, protocol: 1 }));
  } else if (message.type === "turn") {
    console.log(JSON.stringify({ type: "move", id: message.id, index: choose(message.state, message.legal) }));
  } else if (message.type === "bye") {
    lines.close();
  }
});
