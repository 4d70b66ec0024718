"use strict";
// The All Fives replay page: reads the record embedded in the page, replays
// its events up to the chosen step and shows the position (the board is
// drawn by board.js). Step N is the position after the first N events.

const REC = parseExact(document.getElementById("record").textContent);
const EVENTS = REC.events;
const V = REC.variant;
const SEATS = REC.bots.length;
const SIDES = V.players === 4 && V.partners ? [[0, 2], [1, 3]] : REC.bots.map((_, s) => [s]);
const SIDE_OF = [];
SIDES.forEach((seats, side) => seats.forEach((s) => { SIDE_OF[s] = side; }));
const HAND_STARTS = EVENTS.map((e, i) => (e.type === "hand_start" ? i : -1)).filter((i) => i >= 0);
let step = 0; // the position shown: after the first `step` events

const name = (seat) => `${REC.bots[seat]} (seat ${seat})`;
const sideBots = (side) => [...new Set(SIDES[side].map((s) => REC.bots[s]))].join(" & ");
const sideName = (side) => sideBots(side) +
  (SIDES[side].length > 1 ? ` (seats ${SIDES[side].join(", ")})` : ` (seat ${SIDES[side][0]})`);
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

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

const PLACED = []; // each hand's board, placed when first shown

/** The board of hand `h` (its index in the game), with its final layout. */
function handBoard(h) {
  if (!PLACED[h]) {
    const final = new Layout();
    const end = h + 1 < HAND_STARTS.length ? HAND_STARTS[h + 1] : EVENTS.length;
    for (let i = HAND_STARTS[h]; i < end; i++) {
      if (EVENTS[i].type === "play") final.play(EVENTS[i].tile, EVENTS[i].end, i + 1);
    }
    PLACED[h] = placeHand(final);
  }
  return PLACED[h];
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

function handOf(stepNo) {
  let h = -1;
  HAND_STARTS.forEach((start, i) => { if (start < stepNo) h = i; });
  return h;
}

function show(n) {
  step = Number.isFinite(n) ? Math.max(0, Math.min(EVENTS.length, Math.round(n))) : 0;
  const s = replay(step);
  const main = $("viewer");
  main.dataset.step = step;
  main.dataset.steps = EVENTS.length;
  main.dataset.hand = s.hand;
  drawBoard(s.layout, s.handIndex >= 0 ? handBoard(s.handIndex) : null, step, s.last);
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
  $("title").textContent = `All Fives · game ${REC.id}: ${SIDES.map((_, i) => sideName(i)).join(" vs ")}`;
  const variant = [`${V.players} players${V.players === 4 ? (V.partners ? " in partnerships" : ", no partners") : ""}`,
    `deal ${V.deal}`, `boneyard keep ${V.boneyard_keep}`, `hand end ${V.hand_end}`, `target ${V.target}`,
    `at most ${V.max_hands} hands`];
  $("meta").textContent = `deal ${REC.deal}, arrangement ${REC.arrangement ?? REC.rotation}, seed ${REC.seed} · ${variant.join(" · ")}`;
  const r = REC.result;
  const places = SIDES.map((seats, side) => ({ side, rank: r.ranks[seats[0]], score: r.scores[seats[0]] }))
    .sort((a, b) => a.rank - b.rank);
  const ordinal = (n) => ["1st", "2nd", "3rd", "4th"][n] || `${n + 1}th`;
  let result = `Result (${r.reason}): ` + places.map((p) => `${ordinal(p.rank)} ${sideName(p.side)} ${p.score}`).join(" · ");
  for (const f of REC.faults) result += ` · fault: ${name(f.seat)} ${f.kind}: ${f.message}`;
  $("result").textContent = result;
  // The tab names the game, the sides and the result, e.g. "All Fives · game 2: greedy vs random · greedy won 255–190".
  const winners = places.filter((p) => p.rank === 0).map((p) => sideBots(p.side));
  const outcome = r.reason === "forfeit" ? "forfeit, " : "";
  const scores = SIDES.map((seats) => r.scores[seats[0]]).join("–");
  const verdict = winners.length === 1 ? `${outcome}${winners[0]} won ${scores}` : `${outcome}a draw ${scores}`;
  document.title = `All Fives · game ${REC.id}: ${SIDES.map((_, i) => sideBots(i)).join(" vs ")} · ${verdict}`;
  const slider = $("slider");
  slider.max = EVENTS.length;
  slider.addEventListener("input", () => show(Number(slider.value)));
  const hands = $("hands");
  HAND_STARTS.forEach((start, i) => {
    const hand = EVENTS[start].hand;
    const b = el("button", { id: `hand-${hand}`, "data-hand": hand, title: `Hand ${hand}` }, String(hand));
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
