"use strict";
// The All Fives replay page: reads the record embedded in the page, replays
// its events up to the chosen step and draws the position. Step N is the
// position after the first N events.

const U = 10; // half a domino: a domino is 2U by U
const TEXT = document.getElementById("record").textContent;
const REC = JSON.parse(TEXT);
const EVENTS = REC.events;
const V = REC.variant;
const SEATS = REC.bots.length;
const SIDES = V.players === 4 && V.partners ? [[0, 2], [1, 3]] : REC.bots.map((_, s) => [s]);
const SIDE_OF = [];
SIDES.forEach((seats, side) => seats.forEach((s) => { SIDE_OF[s] = side; }));
const HAND_STARTS = EVENTS.map((e, i) => (e.type === "hand_start" ? i : -1)).filter((i) => i >= 0);
// Seeds exceed 2^53: read them from the text, not from the parsed numbers.
const SEED = (TEXT.match(/"seed":\s*(\d+)/) || [])[1];

const $ = (id) => document.getElementById(id);
const SVG = $("board").namespaceURI;
const key = (t) => `${Math.min(t[0], t[1])}-${Math.max(t[0], t[1])}`;
const name = (seat) => `${REC.bots[seat]} (seat ${seat})`;
const sideName = (side) => [...new Set(SIDES[side].map((s) => REC.bots[s]))].join(" & ") +
  (SIDES[side].length > 1 ? ` (seats ${SIDES[side].join(", ")})` : ` (seat ${SIDES[side][0]})`);
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

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

// ---- Replaying the record up to a step.

function replay(step) {
  const s = { hand: 0, handIndex: -1, hands: [], boneyard: [], layout: new Layout(), scores: SIDES.map(() => 0),
    handEnd: null, last: null, perHand: [] };
  for (let i = 0; i < step; i++) {
    const e = EVENTS[i];
    s.last = e;
    if (e.type === "hand_start") {
      Object.assign(s, { hand: e.hand, handIndex: s.handIndex + 1, leader: e.leader, handEnd: null,
        hands: e.hands.map((h) => h.map(key)), boneyard: e.boneyard.map(key), layout: new Layout() });
      s.perHand.push({ hand: e.hand, start: e.scores, plays: SIDES.map(() => 0), changes: null, end: null });
    } else if (e.type === "play") {
      s.hands[e.seat] = s.hands[e.seat].filter((t) => t !== key(e.tile));
      s.layout.play(e.tile, e.end, i + 1);
      s.perHand[s.handIndex].plays[SIDE_OF[e.seat]] += e.points;
    } else if (e.type === "draw") {
      for (const t of e.tiles) {
        s.boneyard = s.boneyard.filter((b) => b !== key(t));
        s.hands[e.seat].push(key(t));
      }
      s.hands[e.seat].sort();
    } else if (e.type === "hand_end") {
      s.handEnd = e;
      Object.assign(s.perHand[s.handIndex], { changes: SIDES.map((seats) => e.changes[seats[0]]), end: e.reason });
    }
    if (e.scores) s.scores = SIDES.map((seats) => e.scores[seats[0]]);
  }
  return s;
}

function describe(e) {
  switch (e.type) {
    case "hand_start": return `Hand ${e.hand} dealt; ${name(e.leader)} leads`;
    case "play": {
      const where = e.end === null ? "leads" : `plays on end ${e.end}:`;
      return `${name(e.seat)} ${where} ${key(e.tile)}${e.points ? ` scoring ${e.points}` : ""}`;
    }
    case "draw": return `${name(e.seat)} draws ${e.count}: ${e.tiles.map(key).join(" ")}`;
    case "pass": return `${name(e.seat)} passes`;
    case "hand_end": {
      if (e.reason === "target") return `Hand ${e.hand} ends: the target is reached`;
      const how = e.reason === "out" ? `${name(e.out)} went out` : "blocked";
      return `Hand ${e.hand} ends: ${how}; pips ${e.pips.join(", ")}; settled ${e.changes.map(signed).join(", ")}`;
    }
    default: return e.type;
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

/** Places the tiles of one arm; returns their drawings and the open end's position. */
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
    placed.push({ c, orient, first, second, t });
    p = add(p, d, len);
    inLeg++;
  });
  return { placed, end: p, dir: d };
}

function drawBoard(s) {
  const board = $("board");
  board.replaceChildren();
  const layout = s.layout;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  const extend = (x, y, rx, ry) => {
    [minX, maxX] = [Math.min(minX, x - rx), Math.max(maxX, x + rx)];
    [minY, maxY] = [Math.min(minY, y - ry), Math.max(maxY, y + ry)];
  };
  if (layout.center) {
    const c = layout.center;
    const spinner = c === layout.spinner;
    const tiles = [];
    tiles.push({ c: [0, 0], orient: c.dbl ? "v" : "h", first: c.a, second: c.b, t: { tile: key([c.a, c.b]), step: c.step },
      arm: "center" });
    const faces = { E: c.dbl ? U / 2 : U, W: c.dbl ? U / 2 : U, N: U, S: U };
    const marks = [];
    const arms = layout.arms();
    // An arm may run straight for as long as the one opposite leaves room.
    const straight = {};
    for (const id of [0, 1, 2, 3]) {
      const dir = ARMS[id][0];
      straight[dir] = faces[dir] + arms[id].reduce((n, t) => n + (t.dbl ? U : 2 * U), 0);
    }
    for (const id of [0, 1, 2, 3]) {
      const [outName, bendName, label] = ARMS[id];
      if (id >= 2 && !layout.ends[id]) continue;
      const span = SPAN[outName];
      const reach = Math.max(span / 2, span - Math.min(straight[OPPOSITE[outName]], span / 2));
      const start = add([0, 0], DIRS[outName], faces[outName]);
      const arm = placeArm(arms[id], start, outName, bendName, reach);
      arm.placed.forEach((x) => tiles.push({ ...x, arm: label }));
      if (layout.ends[id]) marks.push({ id, at: add(arm.end, arm.dir, 0.9 * U), count: layout.counts()[id] });
    }
    for (const x of tiles) {
      const last = x.t.step === s.lastStep;
      const attrs = { "data-tile": x.t.tile, "data-arm": x.arm, "data-step": x.t.step };
      const g = domino(x.c[0], x.c[1], x.orient, x.first, x.second, attrs);
      if (x.arm === "center" && spinner) g.classList.add("spinner");
      if (last) g.classList.add("last");
      board.append(g);
      extend(x.c[0], x.c[1], x.orient === "h" ? U : U / 2, x.orient === "h" ? U / 2 : U);
    }
    const played = s.last && s.last.type === "play" ? tiles.find((x) => x.t.step === s.lastStep) : null;
    if (played && s.last.points) {
      const r = played.orient === "h" ? U / 2 : U;
      board.append(el("svg:text", { class: "points", x: played.c[0], y: played.c[1] - r - 1.5 }, `+${s.last.points}`));
    }
    for (const m of marks) {
      const g = el("svg:g", { class: "end", "data-end": m.id });
      extend(m.at[0], m.at[1], 3.3, 3.3);
      g.append(el("svg:circle", { cx: m.at[0], cy: m.at[1], r: 3.3 }));
      g.append(el("svg:text", { x: m.at[0], y: m.at[1] + 1.3 }, String(m.id)));
      g.append(el("svg:title", {}, `end ${m.id}: shows ${layout.ends[m.id].pips}, counts ${m.count}`));
      board.append(g);
    }
  } else {
    board.append(el("svg:text", { class: "empty", x: 0, y: 0 }, s.hand ? "waiting for the lead" : "the game has not started"));
    extend(0, 0, 0, 0);
  }
  // Everything in view and in the middle, dominoes no larger than a minimum view allows.
  const [cx, cy] = [(minX + maxX) / 2, (minY + maxY) / 2];
  const hw = Math.max(13.5 * U, (maxX - minX) / 2 + U), hh = Math.max(8.4 * U, (maxY - minY) / 2 + 1.5 * U);
  const view = { x: cx - hw, y: cy - hh, width: 2 * hw, height: 2 * hh };
  board.setAttribute("viewBox", `${view.x} ${view.y} ${view.width} ${view.height}`);
  const counts = layout.counts().filter((c) => c !== null);
  const total = counts.reduce((a, b) => a + b, 0);
  const spinner = layout.spinner ? `spinner ${layout.spinner.a}-${layout.spinner.a}` : "no spinner yet";
  $("count").textContent = layout.center ? `count ${counts.join(" + ")} = ${total}\n${spinner}` : "";
}

// ---- The panels around the board.

function drawSeats(s) {
  const seats = $("seats");
  seats.replaceChildren();
  const actor = s.last && "seat" in s.last ? s.last.seat : null;
  for (let seat = 0; seat < SEATS; seat++) {
    const side = SIDE_OF[seat];
    const panel = el("div", { class: `panel seat side${side}`, "data-seat": seat });
    if (seat === actor) panel.classList.add("acting");
    const head = el("div", { class: "head" });
    head.append(el("span", { class: "name" }, name(seat)));
    if (s.hand && seat === s.leader) head.append(el("span", { class: "badge" }, "leads"));
    head.append(el("span", { class: "score", "data-score": s.scores[side] }, String(s.scores[side])));
    panel.append(head);
    const tiles = el("div", { class: "tiles" });
    const hand = s.hands[seat] || [];
    const fresh = s.last && s.last.type === "draw" && s.last.seat === seat ? s.last.tiles.map(key) : [];
    hand.forEach((k) => tiles.append(smallTile(k, fresh.includes(k) ? "drawn" : "")));
    if (!hand.length && s.hand) tiles.append(el("span", { class: "note" }, "no tiles left"));
    const pips = hand.reduce((n, k) => n + k.split("-").reduce((a, b) => a + Number(b), 0), 0);
    const foot = el("div", { class: "foot" });
    foot.append(el("div", {}, `${hand.length} tile${hand.length === 1 ? "" : "s"} · ${pips} pips`));
    if (s.handEnd && s.handEnd.reason !== "target") foot.append(el("div", { class: "settled" }, `settled ${signed(s.handEnd.changes[seat])}`));
    const row = el("div", { class: "row" });
    row.append(tiles, foot);
    panel.append(row);
    seats.append(panel);
  }
}

function drawBoneyard(s) {
  const box = $("boneyard");
  box.replaceChildren();
  const keep = V.boneyard_keep || 0;
  const drawable = Math.max(0, s.boneyard.length - keep);
  box.setAttribute("data-count", s.boneyard.length);
  const head = el("h2", {}, `Boneyard · ${s.boneyard.length} tile${s.boneyard.length === 1 ? "" : "s"}` +
    (keep ? `, ${drawable} drawable` : ""));
  if (s.boneyard.length) head.append(el("span", { class: "hint" }, " drawn from the left"));
  box.append(head);
  const tiles = el("div", { class: "tiles" });
  s.boneyard.forEach((k, i) => tiles.append(smallTile(k, i >= drawable ? "kept" : "")));
  box.append(tiles);
}

function drawScores(s) {
  const table = $("scores");
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", {}, "hand"));
  SIDES.forEach((seats, side) => head.append(el("th", { class: `side${side}`, title: sideName(side) },
    [...new Set(seats.map((seat) => REC.bots[seat]))].join(" & "))));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  s.perHand.forEach((h, i) => {
    const row = el("tr", i === s.handIndex ? { class: "current" } : {});
    row.append(el("td", {}, String(h.hand)));
    SIDES.forEach((_, side) => {
      const td = el("td");
      td.append(el("span", { class: "plays", title: "points scored by plays" }, `+${h.plays[side]}`));
      if (h.changes && h.end !== "target") td.append(el("span", { class: "settle", title: "settlement" }, ` ${signed(h.changes[side])}`));
      const total = i === s.handIndex ? s.scores[side] : (s.perHand[i + 1] || {}).start?.[SIDES[side][0]];
      td.append(el("b", {}, ` = ${total}`));
      row.append(td);
    });
    body.append(row);
  });
  table.append(body);
}

function buildLog() {
  const log = $("log");
  EVENTS.forEach((e, i) => {
    const li = el("li", { "data-step": i + 1, class: e.type }, describe(e));
    if (e.type === "play") {
      li.append(el("span", { class: "pts" }, e.points ? `+${e.points}` : ""));
    }
    li.addEventListener("click", () => show(i + 1));
    log.append(li);
  });
  for (const f of REC.faults) log.append(el("li", { class: "fault" }, `${name(f.seat)} faulted (${f.kind}): ${f.message}`));
}

// ---- The controls.

let step = 0;

function handOf(stepNo) {
  let h = -1;
  HAND_STARTS.forEach((start, i) => { if (start < stepNo) h = i; });
  return h;
}

function show(n) {
  step = Number.isFinite(n) ? Math.max(0, Math.min(EVENTS.length, Math.round(n))) : 0;
  const s = replay(step);
  s.lastStep = step;
  const main = $("viewer");
  main.dataset.step = step;
  main.dataset.steps = EVENTS.length;
  main.dataset.hand = s.hand;
  drawBoard(s);
  drawSeats(s);
  drawBoneyard(s);
  drawScores(s);
  $("slider").value = step;
  const what = s.last ? describe(s.last) : "Before the first deal";
  $("status").textContent = `Step ${step} of ${EVENTS.length} · hand ${s.hand || "–"} of ${HAND_STARTS.length} · ${what}`;
  for (const b of document.querySelectorAll("#hands button")) b.classList.toggle("current", Number(b.dataset.hand) === s.hand);
  const log = $("log");
  for (const li of log.querySelectorAll("li.current")) li.classList.remove("current");
  const li = log.querySelector(`li[data-step="${step}"]`);
  if (li) {
    li.classList.add("current");
    log.scrollTop = li.offsetTop - log.clientHeight / 2;
  }
  $("prev").disabled = step === 0;
  $("first").disabled = step === 0;
  $("next").disabled = step === EVENTS.length;
  $("last").disabled = step === EVENTS.length;
  history.replaceState(null, "", `#step=${step}`);
}

const startOf = (h) => HAND_STARTS[h] + 1;

function setup() {
  document.title = `All Fives · game ${REC.id}: ${[...new Set(REC.bots)].join(" vs ")}`;
  $("title").textContent = `All Fives · game ${REC.id}: ${SIDES.map((_, i) => sideName(i)).join(" vs ")}`;
  const variant = [`${V.players} players${V.players === 4 ? (V.partners ? " in partnerships" : ", no partners") : ""}`,
    `deal ${V.deal}`, `boneyard keep ${V.boneyard_keep}`, `hand end ${V.hand_end}`, `target ${V.target}`,
    `at most ${V.max_hands} hands`];
  $("meta").textContent = `deal ${REC.deal}, rotation ${REC.rotation}, seed ${SEED} · ${variant.join(" · ")}`;
  const r = REC.result;
  const places = SIDES.map((seats, side) => ({ side, rank: r.ranks[seats[0]], score: r.scores[seats[0]] }))
    .sort((a, b) => a.rank - b.rank);
  const ordinal = (n) => ["1st", "2nd", "3rd", "4th"][n] || `${n + 1}th`;
  let result = `Result (${r.reason}): ` + places.map((p) => `${ordinal(p.rank)} ${sideName(p.side)} ${p.score}`).join(" · ");
  for (const f of REC.faults) result += ` · fault: ${name(f.seat)} ${f.kind}: ${f.message}`;
  $("result").textContent = result;
  const slider = $("slider");
  slider.max = EVENTS.length;
  slider.addEventListener("input", () => show(Number(slider.value)));
  const hands = $("hands");
  HAND_STARTS.forEach((_, i) => {
    const b = el("button", { id: `hand-${EVENTS[HAND_STARTS[i]].hand}`, "data-hand": EVENTS[HAND_STARTS[i]].hand,
      title: `Hand ${EVENTS[HAND_STARTS[i]].hand}` }, String(EVENTS[HAND_STARTS[i]].hand));
    b.addEventListener("click", () => show(startOf(i)));
    hands.append(b);
  });
  $("first").addEventListener("click", () => show(0));
  $("last").addEventListener("click", () => show(EVENTS.length));
  $("prev").addEventListener("click", () => show(step - 1));
  $("next").addEventListener("click", () => show(step + 1));
  $("prev-hand").addEventListener("click", () => {
    const h = handOf(step);
    show(h < 0 ? 0 : step > startOf(h) ? startOf(h) : h > 0 ? startOf(h - 1) : 0);
  });
  $("next-hand").addEventListener("click", () => {
    const h = handOf(step);
    show(h + 1 < HAND_STARTS.length ? startOf(h + 1) : EVENTS.length);
  });
  const keys = { ArrowLeft: "prev", ArrowRight: "next", PageUp: "prev-hand", PageDown: "next-hand", Home: "first", End: "last" };
  document.addEventListener("keydown", (e) => {
    if (keys[e.key] && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      $(keys[e.key]).click();
    }
  });
  buildLog();
}

/**
 * `#step=N&press=next,hand:2,key:PageDown,…`: the first position, then
 * buttons to click (by id; `hand:H` for hand H) or keys to press, in order.
 */
function fromAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  show(params.has("step") ? Number(params.get("step")) : Math.min(1, EVENTS.length));
  const presses = (params.get("press") || "").split(",").filter(Boolean);
  for (const press of presses) {
    if (press.startsWith("key:")) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: press.slice(4), bubbles: true, cancelable: true }));
      continue;
    }
    const button = $(press.startsWith("hand:") ? `hand-${press.slice(5)}` : press);
    if (!button || button.tagName !== "BUTTON") {
      $("viewer").dataset.error = `no button ${press}`;
      break;
    }
    button.click();
  }
}

setup();
fromAddress();
