"use strict";
// The board of the All Fives replay page: the layout as the engine keeps it,
// where each domino goes, and drawing it. view.js (after this file in the
// page) reads the record and runs the controls.

const U = 10; // half a domino: a domino is 2U by U
const $ = (id) => document.getElementById(id);
const SVG = $("board").namespaceURI;
const key = (t) => `${Math.min(t[0], t[1])}-${Math.max(t[0], t[1])}`;

function el(tag, attrs = {}, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- The layout, as the engine keeps it (layout.rs): ends 0 and 1 are the
// ends of the line, 2 and 3 the spinner's short ends.

class Layout {
  constructor() {
    this.line = []; // west (end 0) to east (end 1): {a: west value, b: east value}
    this.short = [[], []]; // ends 2 and 3, outward: {a: inner value, b: outer value}
    this.center = null; // the spinner, or the lead while there is no spinner
    this.spinner = null;
    this.ends = [null, null, null, null]; // {pips, kind: plain | double | side | short}
  }

  play(tile, end, step) {
    const dbl = tile[0] === tile[1];
    if (end === null) {
      const t = { a: tile[0], b: tile[1], dbl, step };
      this.line.push(t);
      this.center = t;
      const kind = dbl ? "side" : "plain";
      this.ends[0] = { pips: tile[0], kind };
      this.ends[1] = { pips: tile[1], kind };
      if (dbl) this.spinner = t;
      return;
    }
    const m = this.ends[end].pips;
    const o = tile[0] === m ? tile[1] : tile[0];
    // a: the value facing west (end 0) or the spinner; b: the other.
    const t = end === 0 ? { a: o, b: m, dbl, step } : { a: m, b: o, dbl, step };
    if (end === 0) this.line.unshift(t);
    else if (end === 1) this.line.push(t);
    else this.short[end - 2].push(t);
    if (dbl && !this.spinner) {
      this.spinner = this.center = t;
      this.ends[end] = { pips: m, kind: "side" };
    } else {
      this.ends[end] = { pips: o, kind: dbl ? "double" : "plain" };
    }
    if (this.spinner && this.ends[0].kind !== "side" && this.ends[1].kind !== "side" && !this.ends[2]) {
      this.ends[2] = { pips: this.spinner.a, kind: "short" };
      this.ends[3] = { pips: this.spinner.a, kind: "short" };
    }
  }

  /** What each open end counts, by id (null where closed). */
  counts() {
    const lone = this.line.length === 1 && this.spinner;
    return this.ends.map((e) => {
      if (!e) return null;
      if (e.kind === "short") return 0;
      if (e.kind === "plain") return e.pips;
      return e.kind === "side" && lone ? e.pips : 2 * e.pips;
    });
  }

  /** The arms going out of the center tile, each tile as {entry, exit, dbl, step}. */
  arms() {
    const p = this.line.indexOf(this.center);
    const out = (t, entry, exit) => ({ entry, exit, dbl: t.dbl, step: t.step, tile: key([t.a, t.b]) });
    return {
      0: this.line.slice(0, p).reverse().map((t) => out(t, t.b, t.a)),
      1: this.line.slice(p + 1).map((t) => out(t, t.a, t.b)),
      2: this.short[0].map((t) => out(t, t.a, t.b)),
      3: this.short[1].map((t) => out(t, t.a, t.b)),
    };
  }
}

// ---- Drawing dominoes.

const PIPS = {
  0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]],
};

/**
 * A domino centred on (cx, cy): horizontal ("h") or vertical ("v"), showing
 * `first` on its left (or top) half and `second` on the other.
 */
function domino(cx, cy, orient, first, second, attrs = {}) {
  const w = orient === "h" ? 2 * U : U;
  const h = orient === "h" ? U : 2 * U;
  const g = el("svg:g", { class: "tile", ...attrs });
  g.append(el("svg:rect", { x: cx - w / 2 + 0.4, y: cy - h / 2 + 0.4, width: w - 0.8, height: h - 0.8, rx: 1.4 }));
  const line = orient === "h" ? { x1: cx, x2: cx, y1: cy - h / 2 + 1.6, y2: cy + h / 2 - 1.6 }
    : { x1: cx - w / 2 + 1.6, x2: cx + w / 2 - 1.6, y1: cy, y2: cy };
  g.append(el("svg:line", line));
  const halves = orient === "h" ? [[cx - U / 2, cy], [cx + U / 2, cy]] : [[cx, cy - U / 2], [cx, cy + U / 2]];
  [first, second].forEach((value, i) => {
    for (const [px, py] of PIPS[value]) {
      const [dx, dy] = orient === "h" ? [py, px] : [px, py];
      g.append(el("svg:circle", { cx: halves[i][0] + dx * 2.6, cy: halves[i][1] + dy * 2.6, r: 0.95 }));
    }
  });
  return g;
}

/** A small standalone domino (for hands and the boneyard). */
function smallTile(k, extra = "") {
  const [a, b] = k.split("-").map(Number);
  const svg = el("svg:svg", { viewBox: `0 0 ${U} ${2 * U}`, class: `mini ${extra}`, "data-tile": k });
  svg.append(domino(U / 2, U, "v", a, b));
  return svg;
}

// ---- Placing the arms. Each arm goes out from the center tile and, when it
// runs long, bends (always turning the same way round, so each arm keeps to
// its own quarter of the board) and snakes back and forth.

const DIRS = { E: [1, 0], N: [0, -1], W: [-1, 0], S: [0, 1] };
const ARMS = { 0: ["W", "S", "west"], 1: ["E", "N", "east"], 2: ["N", "W", "north"], 3: ["S", "E", "south"] };
// How long the line and the cross may be, end to end, before their arms bend.
const SPAN = { E: 25 * U, W: 25 * U, N: 15 * U, S: 15 * U };
const OPPOSITE = { E: "W", W: "E", N: "S", S: "N" };
const INNER = 1.6 * U; // how far in a run coming back may go

const add = (p, d, k) => [p[0] + d[0] * k, p[1] + d[1] * k];
const dot = (p, d) => p[0] * d[0] + p[1] * d[1];

/**
 * Places the tiles of one arm: each gets its center `c`, orientation, the
 * values on its left (top) and right (bottom) halves, and the points where
 * it meets the tiles before and after it (`entry`, `exit`) going `dir`.
 */
function placeArm(tiles, start, outName, bendName, reach) {
  const out = DIRS[outName], bend = DIRS[bendName], back = [-out[0], -out[1]];
  let p = start, d = out, phase = "out", inLeg = 0, lastRun = "out";
  const placed = [];
  const turn = (to) => { p = add(add(p, d, U / 2), to, -U / 2); d = to; inLeg = 0; };
  tiles.forEach((t, i) => {
    const len = t.dbl ? U : 2 * U;
    if (phase === "turn") {
      if (inLeg > 0 && !t.dbl) {
        phase = lastRun === "out" ? "back" : "out";
        turn(phase === "out" ? out : back);
      }
    } else if (!t.dbl && inLeg > 0) {
      const along = dot(p, out);
      const fits = phase === "out" ? along + len + U <= reach : along - len >= INNER;
      if (!fits) {
        lastRun = phase;
        phase = "turn";
        turn(bend);
      }
    }
    const horizontal = d[1] === 0;
    const orient = t.dbl === horizontal ? "v" : "h";
    const c = add(p, d, len / 2);
    // The half touching the previous tile is the entry; left or top is "first".
    const entryFirst = d[0] + d[1] > 0;
    const [first, second] = entryFirst ? [t.entry, t.exit] : [t.exit, t.entry];
    const entry = p;
    p = add(p, d, len);
    placed.push({ c, orient, first, second, t, entry, exit: p, dir: d });
    inLeg++;
  });
  return placed;
}

/**
 * Where every tile of a hand's final layout goes, the center tile at (0, 0):
 * `{ center, faces, arms }`, `arms[id]` the placed tiles of the arm leading
 * to end `id`, outward. Tiles never move during a hand: a position shows the
 * tiles played so far at their final places.
 */
function placeLayout(layout) {
  const c = layout.center;
  const center = { c: [0, 0], orient: c.dbl ? "v" : "h", first: c.a, second: c.b, t: { tile: key([c.a, c.b]), step: c.step } };
  const faces = { E: c.dbl ? U / 2 : U, W: c.dbl ? U / 2 : U, N: U, S: U };
  const tiles = layout.arms();
  // An arm may run straight for as long as the one opposite leaves room.
  const straight = {};
  for (const id of [0, 1, 2, 3]) {
    straight[ARMS[id][0]] = faces[ARMS[id][0]] + tiles[id].reduce((n, t) => n + (t.dbl ? U : 2 * U), 0);
  }
  const arms = {};
  for (const id of [0, 1, 2, 3]) {
    const [outName, bendName] = ARMS[id];
    const span = SPAN[outName];
    const reach = Math.max(span / 2, span - Math.min(straight[OPPOSITE[outName]], span / 2));
    arms[id] = placeArm(tiles[id], add([0, 0], DIRS[outName], faces[outName]), outName, bendName, reach);
  }
  return { center, faces, arms };
}

/**
 * Where the marks of the open ends go after `step`, the hand's final layout
 * placed as `place`: beyond the last tile played on an arm, or, for the end
 * of a line still growing towards the spinner's place, on the next tile's place.
 */
function endMarks(final, place, layout, step) {
  const shown = final.line.filter((t) => t.step <= step);
  if (!shown.length) return [];
  const p = final.line.indexOf(final.center);
  const beyond = (x) => add(x.exit, x.dir, 0.9 * U);
  const face = (dir) => add([0, 0], DIRS[dir], place.faces[dir] + 0.9 * U);
  const lineEnd = (west) => {
    const j = final.line.indexOf(west ? shown[0] : shown[shown.length - 1]);
    if (j === p) return face(west ? "W" : "E");
    const arm = place.arms[j < p ? 0 : 1];
    const at = j < p ? p - 1 - j : j - p - 1;
    if ((j < p) === west) return beyond(arm[at]);
    return at > 0 ? arm[at - 1].c : [0, 0];
  };
  const marks = [{ id: 0, at: lineEnd(true) }, { id: 1, at: lineEnd(false) }];
  for (const id of [2, 3]) {
    if (!layout.ends[id]) continue;
    const played = place.arms[id].filter((x) => x.t.step <= step);
    marks.push({ id, at: played.length ? beyond(played[played.length - 1]) : face(ARMS[id][0]) });
  }
  return marks;
}

/** The box around every tile and mark of a hand, at least large enough to keep dominoes a sensible size. */
function viewBox(final, place) {
  let [minX, minY, maxX, maxY] = [0, 0, 0, 0];
  const extend = (x, y, rx, ry) => {
    [minX, maxX] = [Math.min(minX, x - rx), Math.max(maxX, x + rx)];
    [minY, maxY] = [Math.min(minY, y - ry), Math.max(maxY, y + ry)];
  };
  if (final.center) {
    for (const x of [place.center, ...Object.values(place.arms).flat()]) {
      extend(x.c[0], x.c[1], x.orient === "h" ? U : U / 2, x.orient === "h" ? U / 2 : U);
    }
    for (const m of endMarks(final, place, final, Infinity)) extend(m.at[0], m.at[1], 3.3, 3.3);
  }
  const [cx, cy] = [(minX + maxX) / 2, (minY + maxY) / 2];
  const hw = Math.max(13.5 * U, (maxX - minX) / 2 + U), hh = Math.max(8.4 * U, (maxY - minY) / 2 + 1.5 * U);
  return `${cx - hw} ${cy - hh} ${2 * hw} ${2 * hh}`;
}

/** A hand's board, once its final layout is known: where everything goes, and the view. */
function placeHand(final) {
  const place = final.center ? placeLayout(final) : null;
  return { final, place, view: viewBox(final, place) };
}

/**
 * Draws `layout` (the hand's layout after `step`) on the board, with the
 * tiles at their places in `hand` (from placeHand), `last` the last event.
 */
function drawBoard(layout, hand, step, last) {
  const board = $("board");
  board.replaceChildren();
  board.setAttribute("viewBox", hand ? hand.view : viewBox(layout, null));
  const counts = layout.counts();
  const open = counts.filter((n) => n !== null);
  const spinner = layout.spinner ? `spinner ${layout.spinner.a}-${layout.spinner.a}` : "no spinner yet";
  $("count").textContent = layout.center ? `count ${open.join(" + ")} = ${open.reduce((a, b) => a + b, 0)}\n${spinner}` : "";
  if (!layout.center) {
    board.append(el("svg:text", { class: "empty", x: 0, y: 0 }, hand ? "waiting for the lead" : "the game has not started"));
    return;
  }
  const { final, place } = hand;
  const arms = [["center", [place.center]], ...[0, 1, 2, 3].map((id) => [ARMS[id][2], place.arms[id]])];
  for (const [arm, tiles] of arms) {
    for (const x of tiles.filter((x) => x.t.step <= step)) {
      const g = domino(x.c[0], x.c[1], x.orient, x.first, x.second, { "data-tile": x.t.tile, "data-arm": arm, "data-step": x.t.step });
      if (x.t.step === (layout.spinner || {}).step) g.classList.add("spinner");
      if (x.t.step === step) g.classList.add("last");
      board.append(g);
      if (x.t.step === step && last.points) {
        const r = x.orient === "h" ? U / 2 : U;
        board.append(el("svg:text", { class: "points", x: x.c[0], y: x.c[1] - r - 1.5 }, `+${last.points}`));
      }
    }
  }
  for (const m of endMarks(final, place, layout, step)) {
    const g = el("svg:g", { class: "end", "data-end": m.id });
    g.append(el("svg:circle", { cx: m.at[0], cy: m.at[1], r: 3.3 }));
    g.append(el("svg:text", { x: m.at[0], y: m.at[1] + 1.3 }, String(m.id)));
    g.append(el("svg:title", {}, `end ${m.id}: shows ${layout.ends[m.id].pips}, counts ${counts[m.id]}`));
    board.append(g);
  }
}
