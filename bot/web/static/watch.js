// The spectators' page: the map, the standings and the turn posts of one
// match, live. It reads only the public view (GET /api/matches/{id}). Its
// words are the channel page's language (words.js): the switch there
// re-words this page too.
"use strict";

const $ = (id) => document.getElementById(id);
const id = location.pathname.split("/").filter(Boolean).pop();

function renderMessage(m) {
  const el = document.createElement("article");
  el.className = "message";
  el.id = "m" + m.id;
  if (m.html) { const d = document.createElement("div"); d.className = "text"; d.innerHTML = m.html; el.appendChild(d); }
  if (m.embed) {
    const e = document.createElement("div");
    e.className = "embed";
    if (m.embed.color) e.style.borderLeftColor = m.embed.color;
    for (const k of ["title", "description"]) if (m.embed[k]) { const d = document.createElement("div"); d.className = k; d.innerHTML = m.embed[k]; e.appendChild(d); }
    for (const f of (m.embed.fields || [])) { const d = document.createElement("div"); d.className = "field"; d.innerHTML = "<b></b> <span></span>"; d.firstChild.innerHTML = f.name; d.lastChild.innerHTML = f.value; e.appendChild(d); }
    if (m.embed.footer) { const d = document.createElement("div"); d.className = "footer"; d.innerHTML = m.embed.footer; e.appendChild(d); }
    el.appendChild(e);
  }
  return el;
}

// The map tells what each territory holds when hovered or focused, as the
// public sees it (the fog of war holds): map.js.
let shown = null, ctl = null;

// The words of the match's and the seats' statuses and of the phases.
const statusWords = { lobby: "page.status.lobby", active: "page.status.active", finished: "page.status.finished", abandoned: "page.status.abandoned" };
const phaseWords = {
  setup: "page.phase.setup", reinforce: "page.phase.reinforce", attack: "page.phase.attack", occupy: "page.phase.occupy", fortify: "page.phase.fortify",
  over: "page.phase.over", action: "page.phase.action", move: "page.phase.move", orders: "page.phase.orders",
};
const seatWords = { eliminated: "page.seat-status.eliminated", surrendered: "page.seat-status.surrendered" };
const word = (list, v) => list[v] ? t(list[v]) : v;

async function refresh(st) {
  const res = await fetch("/api/matches/" + id);
  if (!res.ok) return;
  const m = await res.json();
  if (m.state) {
    shown = { viewer: -1, seats: m.seats, territories: m.state.territories, rules: m.state.options.rules };
    if (!ctl) ctl = RiskMap.attach($("map"), { match: m.id, board: () => shown, pick: () => {} });
    ctl.refresh();
  }
  $("title").textContent = t("page.watch.match", { Match: m.id, Channel: m.channel.replace(/^web:/, "") });
  const status = word(statusWords, m.status);
  $("status").textContent = m.state ? t("page.watch.status-turn", { Status: status, Turn: m.state.turn, Phase: word(phaseWords, m.state.phase) }) : status;
  if (m.state) $("map").src = "/api/matches/" + id + "/map.png?at=" + m.commands;
  const tb = $("standings").tBodies[0];
  tb.textContent = "";
  if (!m.state) return;
  // The columns of the rule set: capitals has troops, a kept item and a
  // hero where classic has armies and cards.
  const capitals = m.state.options.rules === "capitals";
  const heads = capitals ? ["", "page.watch.player", "page.watch.territories", "page.watch.troops", "page.watch.item", "page.watch.hero", ""] :
    ["", "page.watch.player", "page.watch.territories", "page.watch.armies", "page.watch.cards", ""];
  const hr = $("standings").tHead.rows[0];
  if (hr.cells.length !== heads.length || hr.dataset.rules !== m.state.options.rules || hr.dataset.lang !== Words.lang()) {
    hr.textContent = "";
    for (const h of heads) { const th = document.createElement("th"); th.textContent = h && t(h); hr.appendChild(th); }
    hr.dataset.rules = m.state.options.rules;
    hr.dataset.lang = Words.lang();
  }
  m.seats.forEach((s, i) => {
    const seat = m.state.seats[i];
    let terr = 0, armies = 0;
    for (const t of m.state.territories) if (t.owner === i) { terr++; armies += t.armies; }
    const tr = tb.insertRow();
    tr.className = m.state.current === i && m.status === "active" ? "turn" : "";
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = s.color || "#888";
    tr.insertCell().appendChild(dot);
    tr.insertCell().textContent = s.name + (s.bot ? " 🤖" : "");
    tr.insertCell().textContent = terr;
    tr.insertCell().textContent = armies;
    if (capitals) {
      const c = seat.capitals || {};
      tr.insertCell().textContent = c.item ? t("page.watch.item-kept") : "—";
      tr.insertCell().textContent = c.hero ? t("page.watch.hero-on-board") : "—";
    } else {
      tr.insertCell().textContent = (seat.hidden_cards || 0) + (seat.hand || []).length;
    }
    tr.insertCell().textContent = seat.status === "playing" ? (tr.className ? t("page.watch.to-play") : "") : word(seatWords, seat.status);
  });
}

// The words first, then the match. A switch of language on a channel's
// page (another tab) re-words this one.
Words.load().then(start);
addEventListener("storage", (ev) => {
  if (ev.key === "risk.lang") Words.load().then(() => { refresh().catch(() => {}); });
});

function start() {
  const src = new EventSource("/watch/" + id + "/events");
  src.addEventListener("state", (ev) => refresh(JSON.parse(ev.data)));
  src.addEventListener("put", (ev) => {
    const m = JSON.parse(ev.data);
    const box = $("messages");
    const el = renderMessage(m);
    const old = document.getElementById("m" + m.id);
    if (old) old.replaceWith(el); else box.prepend(el);
  });
  src.onopen = () => { $("messages").textContent = ""; };
}
