// The person's seat in the browser (`arena play --web`): takes the seat,
// follows its view (server-sent events) and posts the moves clicked. Every
// text of the game is put in as text (textContent), never as HTML.
"use strict";

const byId = (id) => document.getElementById(id);
/** The number this page holds the seat by, once it has claimed it. */
let holder = null;
/** The view last received. */
let view = null;
/** The tile clicked, when it goes on more than one end (its key `a-b`). */
let chosen = null;
/** Whether a post is on its way. */
let posting = false;

function element(tag, text, attributes) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  return made;
}

function status(text, kind) {
  const shown = byId("status");
  shown.textContent = text;
  shown.dataset.status = kind;
}

/** A tile's key: its two numbers, smaller first. */
function tileKey(tile) {
  return Array.isArray(tile) && tile.length === 2 ? [...tile].sort((a, b) => a - b).join("-") : null;
}

async function post(path) {
  posting = true;
  draw();
  try {
    const answer = await fetch(path, { method: "POST" });
    byId("message").textContent = answer.ok ? "" : await answer.text();
  } catch (e) {
    byId("message").textContent = "the arena did not answer: " + e;
  }
  posting = false;
  draw();
}

function play(index) {
  chosen = null;
  post(`/move?holder=${holder}&number=${view.turn.number}&index=${index}`);
}

function mayMove() {
  return view && view.turn && !view.ended && view.holder === holder && !posting;
}

/** All Fives: the hand as dominoes (board.js draws them), a click plays the tile (or, when it fits more than one end, offers the ends). */
function drawHand(turn) {
  const hand = byId("hand");
  const ends = byId("ends");
  const state = turn.state || {};
  const byTile = new Map();
  turn.moves.forEach((move, index) => {
    const key = tileKey(move.choice && move.choice.tile);
    if (!byTile.has(key)) byTile.set(key, []);
    byTile.get(key).push(index);
  });
  for (const tile of state.hand || []) {
    const key = tileKey(tile);
    const moves = byTile.get(key) || [];
    const button = element("button", undefined, { type: "button", class: "domino", "data-tile": key, "data-moves": String(moves.length), title: `[${tile[0]}|${tile[1]}]` });
    button.append(smallTile(key));
    button.disabled = !mayMove() || moves.length === 0;
    if (key === chosen) button.classList.add("chosen");
    button.addEventListener("click", () => {
      if (moves.length === 1) {
        play(moves[0]);
      } else {
        chosen = key;
        draw();
      }
    });
    hand.append(button);
  }
  if (chosen !== null && byTile.has(chosen)) {
    ends.append(element("span", "on which end? "));
    for (const index of byTile.get(chosen)) {
      const end = element("button", turn.moves[index].label, { type: "button", "data-move": String(index), "data-end": String(turn.moves[index].choice.end) });
      end.disabled = !mayMove();
      end.addEventListener("click", () => play(index));
      ends.append(end);
    }
  }
  // A move that is no tile of the hand (none in the rules today) is still offered.
  const others = turn.moves.map((move, index) => [move, index]).filter(([move]) => !(state.hand || []).some((tile) => tileKey(tile) === tileKey(move.choice && move.choice.tile)));
  drawMoves(others);
}

/**
 * All Fives: the layout drawn by the replay page's board (board.js), from
 * the seat's views of the plays of the hand being played.
 */
function drawFelt(turn) {
  let [layout, step, last] = [new Layout(), 0, {}];
  for (const seen of turn.views || []) {
    if (seen.type === "hand_start") [layout, step, last] = [new Layout(), 0, {}];
    if (seen.type !== "play") continue;
    step += 1;
    layout.play(seen.tile, seen.end === undefined ? null : seen.end, step);
    last = seen;
  }
  drawBoard(layout, layout.center ? placeHand(layout) : null, step, last);
}

/** A Leduc card (`Ks`, `Jh`), or a blank one for a card not seen. */
function card(name) {
  const suits = { s: "♠", h: "♥" };
  const known = typeof name === "string" && name.length === 2 && name[1] in suits;
  return element("span", known ? name[0] + suits[name[1]] : "?", { class: "card " + (known ? name[1] : "none"), "data-card": known ? name : "" });
}

/** Leduc: the public card, the pot, and each seat's chips in, your card on your seat (from the seat's state). */
function drawTable(state) {
  byId("public").replaceChildren(card(state.public));
  byId("pot").textContent = `pot ${state.pot}`;
  byId("seats").replaceChildren(...(state.put_in || []).map((putIn, seat) => {
    const you = seat === view.seat;
    const shown = element("div", undefined, { class: "seat" + (state.folded && state.folded[seat] ? " folded" : ""), "data-seat": String(seat) });
    shown.append(element("div", you ? `seat ${seat} (you)` : `seat ${seat}`), card(you ? state.card : null), element("div", `in for ${putIn}`));
    return shown;
  }));
}

/** Every other game: a button per legal move, labelled as the terminal shows it. */
function drawMoves(moves) {
  for (const [move, index] of moves) {
    const button = element("button", move.label, { type: "button", "data-move": String(index) });
    button.disabled = !mayMove();
    button.addEventListener("click", () => play(index));
    byId("moves").append(button);
  }
}

function draw() {
  if (!view) return;
  const root = byId("seat");
  const turn = view.ended ? null : view.turn;
  root.dataset.number = turn ? String(turn.number) : "";
  root.dataset.ended = view.ended ? "yes" : "";
  root.dataset.holds = String(view.holder === holder);
  byId("title").textContent = view.log[0] || view.game;
  byId("rules").textContent = view.log[1] || "";
  if (view.ended) status(view.ended, "ended");
  else if (view.holder !== holder) status("another page has taken this seat: this one only shows the game (reload it to take the seat back)", "watching");
  else if (turn) status(`your move (move ${turn.number})`, "turn");
  else status("the others are playing…", "waiting");
  const news = byId("news");
  news.replaceChildren(...view.log.slice(Math.max(view.since, 2)).map((line) => element("li", line)));
  byId("log").textContent = view.log.join("\n");
  byId("position").textContent = turn ? turn.position : "";
  byId("felt").hidden = true;
  const leduc = turn && view.game === "leduc" && !view.program && turn.state && Array.isArray(turn.state.put_in);
  byId("table").hidden = !leduc;
  if (leduc) drawTable(turn.state);
  for (const id of ["hand", "ends", "moves"]) byId(id).replaceChildren();
  if (turn) {
    const tiles = view.game === "all-fives" && !view.program && turn.state && Array.isArray(turn.state.hand);
    if (tiles) {
      byId("felt").hidden = false;
      drawFelt(turn);
      drawHand(turn);
    }
    else drawMoves(turn.moves.map((move, index) => [move, index]));
  }
  byId("leave").disabled = !mayMove();
}

byId("leave").addEventListener("click", () => {
  chosen = null;
  post(`/leave?holder=${holder}&number=${view.turn.number}`);
});

async function start() {
  const answer = await fetch("/claim", { method: "POST" });
  holder = Number(await answer.text());
  const events = new EventSource("/events");
  events.addEventListener("view", (event) => {
    const next = JSON.parse(event.data);
    if (!next.turn || !view || !view.turn || next.turn.number !== view.turn.number) chosen = null;
    view = next;
    draw();
  });
  events.onerror = () => {
    if (view && view.ended) {
      events.close();
      draw();
    } else {
      status("the arena is not answering (it may have stopped)", "disconnected");
    }
  };
}

start().catch((e) => status("cannot reach the arena: " + e, "disconnected"));
