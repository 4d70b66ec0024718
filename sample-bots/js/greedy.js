#!/usr/bin/env node
// greedy.js: a sample All Fives bot for the bot arena (Node, standard library only).
//
// It plays the legal move that scores the most points at once; ties go to the
// heaviest tile (tiles left in hand cost points when the hand ends), then to
// the earliest move in the `legal` list.
//
// Run it in a match:
//     target/release/arena match --bot js="node sample-bots/js/greedy.js" --bot greedy=target/release/greedy-bot
//
// To write your own bot, copy this file and change `choose`. The arena talks to
// the bot with one JSON object per line on stdin; the bot answers on stdout.
// Log to stderr (console.error), never to stdout.
"use strict";
const readline = require("readline");

const NAME = "greedy-js";

// Return the index in `legal` of the move to play.
//   state: {hand_number, hand: [[a, b], ...], ends: [{id, pips, counts}, ...],
//           scores, hand_sizes, boneyard, drawable}
//   legal: [{tile: [a, b], end: id or null for the lead, points: scored at once}, ...]
//          (never empty)
function choose(state, legal) {
  const pips = (m) => m.tile[0] + m.tile[1];
  let best = 0;
  for (let i = 1; i < legal.length; i++) {
    const m = legal[i];
    const b = legal[best];
    // Most points, then most pips; only a strictly better move replaces the
    // best so far, so the lowest index wins a tie.
    if (m.points > b.points || (m.points === b.points && pips(m) > pips(b))) best = i;
  }
  return best;
}

// Write one message as one line. Node does not buffer stdout in the process:
// each write goes out as it is made.
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

let done = false; // set by "bye"
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => {
  if (done || !line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      if (message.protocol !== 1) {
        console.error(`${NAME}: unsupported protocol version ${JSON.stringify(message.protocol)}`);
        process.exit(1);
      }
      send({ type: "ready", name: NAME, version: "1.0", protocol: 1 });
      break;
    case "turn":
      send({ type: "move", id: message.id, index: choose(message.state, message.legal) });
      break;
    case "bye":
      // Stop reading; Node exits (status 0) once stdout is written out.
      // (readline may still hand over lines it already read: `done` skips them.)
      done = true;
      input.close();
      process.stdin.destroy();
      break;
    default:
    // Anything else (game_start, hand_start, play, draw, pass, hand_end,
    // game_end, or a type added later) is ignored here; track the events
    // if your bot needs them. game_start carries a seed for your own randomness.
  }
});
