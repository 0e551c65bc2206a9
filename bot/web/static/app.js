// The channel page: messages come as Server-Sent Events ("put": add or
// replace a message); commands, clicks and autocomplete are small JSON
// requests. No framework, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { lang: Words.wanted(), token: "", operator: false, claiming: "", stick: true, top: 0, channel: "", as: localStorage.getItem("risk.as") || "", names: [], source: null, choices: [], pick: -1, info: null };

function channelFromURL() {
  if (state.activity) return state.activity.channel; // Discord's channel (activity.js)
  const c = new URLSearchParams(location.search).get("c");
  // A console's channel too ("console:main"): its match goes on here.
  return c && /^(console:)?[A-Za-z0-9_-]{1,40}$/.test(c) ? c.toLowerCase() : "main";
}

// api sends a request to the server. Those that change something carry
// the session's anti-forgery token (from /web/names), which another site
// cannot read; a token from before a restart of the server is fetched
// again, once.
async function api(method, url, body, retried) {
  // The bot answers in the page's language (the browser's, or the switch's).
  const headers = { "X-Risk-Lang": state.lang };
  if (body) {
    headers["Content-Type"] = "application/json";
    if (!state.token) await fetchToken();
    headers["X-Risk-Token"] = state.token;
  }
  const res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (res.status === 403 && body && !retried && /token/.test(data.error || "")) {
    await fetchToken();
    return api(method, url, body, true);
  }
  if (!res.ok) throw new Error(data.error || res.statusText);
  if (data.token) state.token = data.token;
  if (typeof data.operator === "boolean") state.operator = data.operator;
  return data;
}

async function fetchToken() {
  const res = await fetch("/web/names");
  const data = await res.json().catch(() => ({}));
  state.token = data.token || "";
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

// renderMessage builds (or rebuilds) the element of a message.
function renderMessage(m, readonly) {
  const el = document.createElement("article");
  el.className = "message" + (m.to ? " private" : "");
  el.id = "m" + m.id;
  el.dataset.rev = m.rev;
  const head = document.createElement("div");
  head.className = "head";
  const time = new Date(m.time);
  head.innerHTML = '<span class="avatar">R</span><span class="author">Risk</span><span class="tag">BOT</span><span class="time"></span>';
  const when = head.querySelector(".time");
  when.dataset.time = time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (m.edited) when.dataset.edited = "1";
  wordTime(when);
  el.appendChild(head);
  if (m.html) {
    const body = document.createElement("div");
    body.className = "text";
    body.innerHTML = m.html; // made safe by the server (escaped, then tagged)
    el.appendChild(body);
  }
  if (m.embed) {
    const e = document.createElement("div");
    e.className = "embed";
    if (m.embed.color) e.style.borderLeftColor = m.embed.color;
    const add = (cls, html) => { if (!html) return; const d = document.createElement("div"); d.className = cls; d.innerHTML = html; e.appendChild(d); };
    add("title", m.embed.title);
    add("description", m.embed.description);
    if (m.embed.fields) {
      const fs = document.createElement("div");
      fs.className = "fields";
      for (const f of m.embed.fields) {
        const d = document.createElement("div");
        d.className = "field" + (f.inline ? " inline" : "");
        d.innerHTML = '<div class="name"></div><div class="value"></div>';
        d.firstChild.innerHTML = f.name;
        d.lastChild.innerHTML = f.value;
        fs.appendChild(d);
      }
      e.appendChild(fs);
    }
    if (m.image) e.appendChild(mapImage(m.image, m.board));
    add("footer", m.embed.footer);
    el.appendChild(e);
  } else if (m.image) {
    el.appendChild(mapImage(m.image, m.board));
  }
  if (m.buttons) {
    for (const row of m.buttons) {
      const r = document.createElement("div");
      r.className = "buttons";
      for (const b of row) {
        const btn = document.createElement("button");
        btn.type = "button";
        btn.className = "btn " + b.style;
        btn.textContent = b.label;
        btn.disabled = !!readonly;
        btn.addEventListener("click", () => click(m.id, b.id));
        r.appendChild(btn);
      }
      el.appendChild(r);
    }
  }
  if (m.to) {
    const n = document.createElement("div");
    n.className = "only";
    n.dataset.to = m.to;
    n.textContent = t("page.only", { Name: m.to });
    el.appendChild(n);
  }
  return el;
}

// wordWhen words a time a message names (<time datetime>) in the page's
// language: the server's English as it wrote it, or the browser's own
// words for another language ("dans 24 h (26/11 12:00 UTC)").
function wordWhen(el) {
  if (!el.dataset.en) el.dataset.en = el.textContent;
  if (state.lang === "en") { el.textContent = el.dataset.en; return; }
  const at = new Date(el.dateTime);
  if (isNaN(at)) return;
  const minutes = Math.round((at - Date.now()) / 60000);
  const rel = new Intl.RelativeTimeFormat(state.lang, { style: "short", numeric: "auto" });
  const ago = Math.abs(minutes) >= 60 ? rel.format(Math.round(minutes / 60), "hour") : rel.format(minutes, "minute");
  const date = new Intl.DateTimeFormat(state.lang, { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }).format(at);
  el.textContent = ago + " (" + date.replace(",", "") + " UTC)";
}

function wordWhens(root) {
  for (const el of root.querySelectorAll("time[datetime]")) wordWhen(el);
}

// wordTime words a message's time: "12:04", or "12:04 (edited)".
function wordTime(el) {
  el.textContent = el.dataset.time + (el.dataset.edited ? " " + t("page.edited") : "");
}

function mapImage(src, board) {
  const img = document.createElement("img");
  img.className = "map";
  if (board) img.dataset.board = "1";
  img.src = src;
  img.alt = t("page.map.alt");
  img.loading = "lazy";
  img.addEventListener("click", () => window.open(src, "_blank"));
  // The map's height is known only once it has loaded: the view, if it
  // followed the newest message, follows it still.
  img.addEventListener("load", () => { if (state.stick) stickToEnd(); });
  return img;
}

// stickToEnd shows the newest message, all of it.
function stickToEnd() {
  const box = $("messages");
  box.scrollTop = box.scrollHeight;
  state.top = box.scrollTop;
  state.stick = true;
}

// welcome is shown in a channel without messages: how to begin.
function welcome() {
  const d = document.createElement("div");
  d.id = "welcome";
  const ch = channelOf(state.channel);
  // The steps' words have their markup (<b>, <code>) from the catalogue,
  // which is the program's own; the channel's name is only text.
  d.innerHTML = "<h3></h3><ol><li>" + t("page.welcome.name") + "</li><li>" + t("page.welcome.start") + "</li><li>" +
    t("page.welcome.play") + "</li></ol><p>" + t("page.welcome.more") + "</p>";
  d.firstChild.textContent = t(ch.console ? "page.welcome.title-console" : "page.welcome.title", { Channel: ch.name.replace(/[^a-z0-9_-]/g, "") });
  return d;
}

// fitTables shrinks the type of a message's tables (the standings: a
// code block) that are wider than the screen, down to 9 px, so that a row
// is read at a glance rather than scrolled to; below that they scroll.
function fitTables(el) {
  for (const pre of el.querySelectorAll("pre")) {
    pre.style.fontSize = "";
    if (pre.scrollWidth <= pre.clientWidth) continue;
    let size = parseFloat(getComputedStyle(pre).fontSize);
    size = Math.floor(size * pre.clientWidth / pre.scrollWidth * 10) / 10;
    // Type does not scale quite linearly: a step or two more.
    for (let i = 0; i < 5; i++) {
      pre.style.fontSize = Math.max(9, size) + "px";
      if (size <= 9 || pre.scrollWidth <= pre.clientWidth) break;
      size -= 0.2;
    }
  }
}
let fitTimer = 0;
addEventListener("resize", () => {
  clearTimeout(fitTimer);
  fitTimer = setTimeout(() => fitTables(document.getElementById("messages")), 100);
});

// putMessage adds a message at the end, or replaces it where it is.
function putMessage(box, m, readonly) {
  document.getElementById("welcome")?.remove();
  const el = renderMessage(m, readonly);
  wordWhens(el);
  const old = document.getElementById("m" + m.id);
  if (old) old.replaceWith(el); else box.appendChild(el);
  fitTables(el);
  if (readonly) return;
  if (state.stick || !old) stickToEnd();
  if (m.board) showBoard();
}

let infoTimer = 0;
function connect() {
  if (state.source) state.source.close();
  $("messages").textContent = "";
  const src = new EventSource("/web/events?channel=" + encodeURIComponent(state.channel));
  src.addEventListener("put", (ev) => {
    putMessage($("messages"), JSON.parse(ev.data));
    clearTimeout(infoTimer);
    infoTimer = setTimeout(loadInfo, 150);
  });
  src.onopen = () => {
    $("messages").textContent = "";
    $("messages").appendChild(welcome());
    // Open again after the server restarted: channels may have come or gone.
    if (state.opened) loadChannels().catch(() => {});
    state.opened = true;
  };
  state.source = src;
}

// channelOf reads a channel's name: a console's ("console:main") is the
// terminal's match, played here too, and is marked so wherever it is named.
function channelOf(c) {
  if (state.activity) return { name: t("page.activity.title", { Name: state.activity.name }), console: false }; // Discord's (activity.js)
  const m = /^console:(.*)$/.exec(c);
  return m ? { name: m[1], console: true } : { name: c, console: false };
}

// consoleTag marks a console's channel.
function consoleTag(name) {
  const tag = document.createElement("span");
  tag.className = "kind";
  tag.textContent = t("page.console");
  tag.title = t("page.console.title", { Channel: name });
  return tag;
}

async function loadChannels() {
  const { channels } = await api("GET", "/web/channels");
  if (!channels.includes(state.channel)) channels.unshift(state.channel);
  const ul = $("channel-list");
  ul.textContent = "";
  for (const c of channels) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "?c=" + encodeURIComponent(c);
    const ch = channelOf(c);
    a.textContent = "# " + ch.name;
    if (ch.console) a.appendChild(consoleTag(ch.name));
    if (c === state.channel) a.className = "active";
    li.appendChild(a);
    ul.appendChild(li);
  }
}

async function loadNames() {
  const { names } = await api("GET", "/web/names");
  state.names = names.sort();
  if (state.as && !state.names.includes(state.as)) {
    try { await addName(state.as); return; } catch { state.as = ""; }
  }
  if (!state.as && state.names.length) state.as = state.names[0];
  drawNames();
  if (!state.as) $("add-name-input").focus();
}

// addName plays a name from this browser; proof (the seat's token, or a
// code from the browser that plays them) takes it from another browser.
async function addName(name, proof) {
  let names;
  try {
    ({ names } = await api("POST", "/web/names", proof ? { name, proof } : { name }));
  } catch (e) {
    if (/played from another browser/.test(e.message)) showClaim(name);
    throw e;
  }
  state.names = names.sort();
  showClaim("");
  setAs(name);
}

// showClaim asks for the proof that this browser's player is name: after
// a browser lost its cookie, or on another browser.
function showClaim(name) {
  state.claiming = name;
  $("claim").hidden = !name;
  $("claim-text").textContent = name ? t("page.claim.text", { Name: name }) : "";
  if (name) $("claim-proof").focus();
}

async function forgetName(name) {
  const { names } = await api("POST", "/web/forget", { name });
  state.names = names.sort();
  if (state.as === name) state.as = state.names[0] || "";
  localStorage.setItem("risk.as", state.as);
  drawNames();
  drawSeats();
}

// becomeOperator takes the key of the operator's link (#operator=KEY, which
// risk web prints) off the address and gives it to the server.
async function becomeOperator() {
  const m = /^#operator=(.+)$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    await api("POST", "/web/operator", { key: decodeURIComponent(m[1]) });
  } catch (e) { showError(e.message); }
  drawNames();
}

function setAs(name) {
  state.as = name;
  localStorage.setItem("risk.as", name);
  drawNames();
  drawSeats();
  loadBoard();
}

function drawNames() {
  const ul = $("name-list");
  ul.textContent = "";
  for (const n of state.names) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = n;
    b.className = n === state.as ? "name active" : "name";
    b.addEventListener("click", () => setAs(n));
    li.appendChild(b);
    const x = document.createElement("button");
    x.type = "button";
    x.className = "forget";
    x.textContent = "✕";
    x.title = t("page.forget.title", { Name: n });
    x.addEventListener("click", () => forgetName(n).catch((e) => showError(e.message)));
    li.appendChild(x);
    ul.appendChild(li);
  }
  $("as-badge").textContent = state.as ? state.as : t("page.as-badge.none");
  $("operator-badge").hidden = !state.operator;
  if (state.operator && $("maps-panel").hidden) loadMaps();
  $("maps-panel").hidden = !state.operator;
  $("code-button").hidden = !state.as;
}

async function loadInfo() {
  const was = state.info;
  try {
    state.info = await api("GET", "/web/channel?channel=" + encodeURIComponent(state.channel));
  } catch { return; }
  // A match that starts may open its teams' chats; one that ends closes
  // them: the list of channels follows.
  if (was && (was.status !== state.info.status || was.match !== state.info.match)) loadChannels().catch(() => {});
  drawSeats();
  loadBoard();
}

function drawSeats() {
  const info = state.info;
  const ul = $("seat-list");
  ul.textContent = "";
  const link = $("watch-link");
  link.hidden = !(info && info.match);
  if (info && info.match) link.href = "/watch/" + info.match;
  if (!info || !info.seats.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = info && info.status !== "none" ? t("page.seats.none") : t("page.seats.no-match");
    ul.appendChild(li);
  }
  let mine = false;
  for (const s of (info ? info.seats : [])) {
    const li = document.createElement("li");
    li.className = "seat" + (s.turn ? " turn" : "");
    const dot = document.createElement("span");
    dot.className = "dot";
    if (s.color) dot.style.background = s.color;
    li.appendChild(dot);
    const name = document.createElement("span");
    name.textContent = s.name + (s.bot ? " 🤖" : "") + (s.turn ? " ⏳" : "");
    li.appendChild(name);
    if (s.web && !s.bot && !s.taken && s.name !== state.as) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = t("page.seat.play");
      b.title = t("page.seat.play-title");
      b.addEventListener("click", () => addName(s.name).catch((e) => showError(e.message)));
      li.appendChild(b);
    }
    if (s.web && !s.bot && s.taken) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = t("page.seat.claim");
      b.title = t("page.seat.claim-title");
      b.addEventListener("click", () => showClaim(s.name));
      li.appendChild(b);
      li.title = t("page.seat.taken");
    }
    if (s.name === state.as && s.web) mine = true;
    ul.appendChild(li);
  }
  $("token-button").hidden = !(mine && info && info.status === "active");
}

async function run(line) {
  if (!state.as) { showError(t("page.name-first")); return; }
  showError("");
  try {
    if (line.startsWith("/")) {
      await api("POST", "/web/command", { channel: state.channel, as: state.as, line });
    } else {
      // A team's chat takes what is not a command (the server says where not).
      await api("POST", "/web/say", { channel: state.channel, as: state.as, text: line });
    }
  } catch (e) { showError(e.message); }
}

async function click(message, button) {
  if (!state.as) { showError(t("page.name-first")); return; }
  showError("");
  try {
    await api("POST", "/web/click", { channel: state.channel, as: state.as, message, button });
  } catch (e) { showError(e.message); }
}

// Autocomplete: as in Discord, the legal choices for what is being typed.
let completeSeq = 0;
async function complete() {
  const line = $("command").value;
  const seq = ++completeSeq;
  if (!line.startsWith("/")) { drawChoices([]); return; }
  try {
    const q = new URLSearchParams({ channel: state.channel, as: state.as, line });
    const { choices } = await api("GET", "/web/complete?" + q);
    if (seq === completeSeq) drawChoices(choices, line);
  } catch { drawChoices([]); }
}

function drawChoices(choices, line) {
  state.choices = choices;
  state.choicesFor = line;
  state.pick = choices.length ? 0 : -1;
  const ul = $("suggestions");
  ul.dataset.for = line || "";
  ul.textContent = "";
  choices.forEach((c, i) => {
    const li = document.createElement("li");
    li.setAttribute("role", "option");
    li.className = i === state.pick ? "picked" : "";
    const l = document.createElement("span");
    l.className = "label";
    l.textContent = c.label;
    li.appendChild(l);
    if (c.note) { const n = document.createElement("span"); n.className = "note"; n.textContent = c.note; li.appendChild(n); }
    li.addEventListener("mousedown", (ev) => { ev.preventDefault(); choose(i); });
    ul.appendChild(li);
  });
  ul.hidden = !choices.length;
}

function choose(i) {
  const c = state.choices[i];
  if (!c) return;
  $("command").value = c.line;
  $("command").focus();
  complete();
}

// wordChannel words what names the channel: the tab's title, the command
// box's placeholder, the console's mark.
function wordChannel() {
  const ch = channelOf(state.channel);
  if (ch.console) $("channel-kind").title = t("page.console.title", { Channel: ch.name });
  document.title = t(ch.console ? "page.title-console" : "page.title", { Channel: ch.name });
  $("command").placeholder = t("page.command.placeholder", { Channel: ch.name });
}

// reword words the page again after its language switched: its HTML's
// words are done (Words.load), then what the scripts drew.
function reword() {
  wordChannel();
  drawNames();
  drawSeats();
  if (state.claiming) $("claim-text").textContent = t("page.claim.text", { Name: state.claiming });
  document.getElementById("welcome")?.replaceWith(welcome());
  for (const el of document.querySelectorAll("#messages .message .time")) wordTime(el);
  wordWhens(document.getElementById("messages"));
  for (const el of document.querySelectorAll("#messages .only")) el.textContent = t("page.only", { Name: el.dataset.to });
  for (const img of document.querySelectorAll("#messages img.map")) img.alt = t("page.map.alt");
  if (play.ctl) {
    play.ctl.img.alt = t("page.board.alt");
    play.ctl.refresh();
  }
  drawPlay();
  if (!$("maps-panel").hidden) loadMaps();
  loadChannels().catch(() => {});
}

function setup() {
  state.channel = channelFromURL();
  const ch = channelOf(state.channel);
  $("channel-name").textContent = ch.name;
  $("channel-kind").hidden = !ch.console;
  wordChannel();
  $("command-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const line = $("command").value.trim();
    if (!line) return;
    $("command").value = "";
    completeSeq++; // suggestions on their way are for the line sent
    drawChoices([]);
    run(line);
  });
  $("command").addEventListener("input", complete);
  // Reading older messages stops the view following the newest.
  // Only the reader's own scrolling counts: a map that loads or a message
  // that grows moves the end away without scrolling, and the event of the
  // page's own scroll may come after the next message has arrived.
  $("messages").addEventListener("scroll", () => {
    const box = $("messages");
    if (box.scrollHeight - box.scrollTop - box.clientHeight < 80) state.stick = true;
    else if (box.scrollTop < state.top - 8) state.stick = false;
    state.top = box.scrollTop;
  });
  // On a phone the channels and the players are panels over the channel.
  const panel = (name) => {
    const open = document.body.dataset.panel === name;
    document.body.dataset.panel = open ? "" : name;
  };
  $("show-channels").addEventListener("click", () => panel("channels"));
  $("show-seats").addEventListener("click", () => panel("seats"));
  $("lang").value = state.lang === "fr" ? "fr" : "en";
  // The switch re-words the page at once; the bot's next answers come in
  // its language too (X-Risk-Lang).
  $("lang").addEventListener("change", () => {
    state.lang = $("lang").value;
    localStorage.setItem("risk.lang", state.lang);
    Words.load(state.lang).then(reword);
  });
  $("show-dock").addEventListener("click", () => {
    const b = $("show-dock"), open = b.getAttribute("aria-expanded") === "false";
    b.setAttribute("aria-expanded", String(open));
    showBoard();
    if (state.stick) stickToEnd();
  });
  for (const id of ["channels", "seats"]) {
    $(id).addEventListener("click", (ev) => { if (ev.target.closest(".close-panel")) document.body.dataset.panel = ""; });
  }
  $("command").addEventListener("keydown", (ev) => {
    // Suggestions for what was typed before are no choice for what is there now.
    const n = state.choicesFor === $("command").value ? state.choices.length : 0;
    if (!n) return;
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      state.pick = (state.pick + (ev.key === "ArrowDown" ? 1 : n - 1)) % n;
      [...$("suggestions").children].forEach((li, i) => li.className = i === state.pick ? "picked" : "");
    } else if (ev.key === "Tab" || (ev.key === "Enter" && state.pick >= 0 && !$("command").value.endsWith(" "))) {
      ev.preventDefault();
      choose(state.pick);
    } else if (ev.key === "Escape") {
      drawChoices([]);
    }
  });
  $("command").addEventListener("blur", () => setTimeout(() => drawChoices([]), 100));
  $("new-channel").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const n = $("new-channel-name").value.trim().toLowerCase();
    if (/^[a-z0-9_-]{1,40}$/.test(n)) location.search = "?c=" + encodeURIComponent(n);
    else showError(t("page.channel.bad-name"));
  });
  $("add-name").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const n = $("add-name-input").value.trim();
    if (!n) return;
    addName(n).then(() => {
      $("add-name-input").value = "";
      showError("");
      // On a phone the players' panel covers the channel: a first name
      // added, the newcomer's next step is the command box.
      if (document.body.dataset.panel === "seats" && state.names.length === 1) {
        document.body.dataset.panel = "";
        $("command").focus();
      }
    }).catch((e) => showError(e.message));
  });
  $("claim").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const proof = $("claim-proof").value.trim();
    if (!proof || !state.claiming) return;
    addName(state.claiming, proof).then(() => { $("claim-proof").value = ""; showError(""); }).catch((e) => showError(e.message));
  });
  $("code-button").addEventListener("click", async () => {
    try {
      const { name, code, until } = await api("POST", "/web/code", { as: state.as });
      const box = $("token");
      box.textContent = t("page.code.text", { Name: name, Time: new Date(until * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }) + "\n" + code;
      box.hidden = false;
    } catch (e) { showError(e.message); }
  });
  $("token-button").addEventListener("click", async () => {
    try {
      const { match, token } = await api("POST", "/web/token", { channel: state.channel, as: state.as });
      const box = $("token");
      box.textContent = t("page.token.text", { Match: match, Name: state.as }) + "\n" + token;
      box.hidden = false;
    } catch (e) { showError(e.message); }
  });
  // The operator's link pasted into an open page changes its address's
  // fragment only.
  window.addEventListener("hashchange", () => becomeOperator().then(loadNames).catch((e) => showError(e.message)));
  becomeOperator().then(loadNames).catch((e) => showError(e.message)).finally(() => { document.body.dataset.ready = "1"; });
  loadChannels().catch(() => {});
  loadInfo();
  connect();
  $("command").focus();
}

// The map as the controller (docs/playing.md, "Playing on the map"): the
// newest map of the match, docked over the channel, hovered for what each
// territory holds, clicked to play. What a click does comes from the board
// the server gives this player (GET /web/board: their view, fog and all,
// and their legal moves), so it answers at once; what it sends is the very
// line one would type, so the channel reads the same. play.ms are how long
// clicks took to answer (the handler to its DOM drawn), play.lag the same
// from the input event.
const play = { sel: -1, target: -1, amount: null, ctl: null, match: 0, phase: "", busy: false, hero: null, ms: [], lag: [], sent: 0, acts: [], drawn: null };

async function loadBoard() {
  const info = state.info;
  if (!info || !info.match || info.status !== "active") { state.board = null; showBoard(); return; }
  try {
    const q = new URLSearchParams({ channel: state.channel, as: state.as });
    state.board = await api("GET", "/web/board?" + q);
  } catch { state.board = null; }
  showBoard();
}

// showBoard docks the newest map of the channel and draws what may be
// done on it now.
function showBoard() {
  const b = state.board, maps = document.querySelectorAll("#messages img.map[data-board]");
  let src = maps.length ? maps[maps.length - 1].getAttribute("src") : "";
  // The map of the moment the board shows, each army placed drawn; with
  // fog of war the player's own, the newest the channel showed them.
  if (b && src && !b.fog) src = "/api/matches/" + b.match + "/map.png?at=" + b.commands;
  const dock = $("dock"), was = dock.hidden;
  $("show-dock").hidden = dock.hidden = !(b && src);
  // The dock takes its height from the channel: the newest message, if
  // it was in view, stays so.
  if (was !== dock.hidden && state.stick) stickToEnd();
  if (dock.hidden) return;
  dock.classList.toggle("closed", $("show-dock").getAttribute("aria-expanded") === "false");
  if (!play.ctl || play.match !== b.match) {
    const img = document.createElement("img");
    img.className = "map";
    img.alt = t("page.board.alt");
    $("dock-map").textContent = "";
    $("dock-map").appendChild(img);
    play.match = b.match;
    play.sel = play.target = -1;
    img.addEventListener("load", () => { if (state.stick) stickToEnd(); });
    play.ctl = RiskMap.attach(img, { match: b.match, board: () => state.board, pick, zoom: true });
    play.drawn = null; // the panel holds the last map's zoom buttons
    play.ctl.ready.then(drawPlay, () => {});
  }
  if (play.ctl.img.getAttribute("src") !== src) play.ctl.img.src = src;
  const mv = b.moves || {};
  // A new phase asks for new choices.
  if (play.phase !== b.phase + b.turn) play.sel = play.target = -1;
  play.phase = b.phase + b.turn;
  if (play.sel >= 0 && !selectable(mv, play.sel)) play.sel = -1;
  if (play.target >= 0 && !(play.sel >= 0 && targetKind(mv, play.sel, play.target))) play.target = -1;
  if (play.amount && !(mv.place || []).includes(play.amount.t)) play.amount = null;
  play.busy = false;
  play.ctl.refresh();
  drawPlay();
}

const findFrom = (list, t) => (list || []).find((x) => x.from === t);
// The kinds of target a territory picked first may have: the classic
// attack and move, a simultaneous round's attack order (assault), the
// capitals capture, plan and move.
const kinds = ["attack", "assault", "capture", "plan", "fortify", "move"];
const sourceOf = (mv, t) => kinds.some((k) => findFrom(mv[k], t));
// selectable: t may be picked first (a source, a capital, where the
// reinforcements or a port may go).
const selectable = (mv, t) => sourceOf(mv, t) || [mv.capital, mv.reinforce, mv.port].some((l) => (l || []).includes(t));
function targetKind(mv, from, to) {
  return kinds.find((k) => (findFrom(mv[k], from) || { to: [] }).to.some((x) => (x.to ?? x) === to)) || "";
}
const tname = (t) => { const n = play.ctl.reg.territories[t].name; return /\s/.test(n) ? '"' + n + '"' : n; };

// pick is a click, tap or Enter on territory t (more: shift or a long
// press: choose an amount; at: when the input came).
function pick(t, more, at) {
  const b = state.board, mv = (b && b.moves) || {};
  const t0 = performance.now();
  if (play.busy) return;
  if (play.sel >= 0 && targetKind(mv, play.sel, t)) {
    play.target = play.target === t ? -1 : t;
  } else if ((mv.place || []).includes(t)) {
    // A placement first: in a simultaneous round, the armies are placed
    // before the attack and move orders (the round's commit needs them).
    if (more) play.amount = { t };
    else send("/risk place territory:" + tname(t) + " armies:1");
  } else if (selectable(mv, t)) {
    play.sel = play.sel === t ? -1 : t;
    play.target = -1;
  } else {
    play.sel = play.target = -1;
  }
  drawPlay();
  play.ms.push(performance.now() - t0);
  if (at) play.lag.push(performance.now() - at);
}

function send(line) {
  play.busy = true;
  play.amount = null;
  play.target = -1;
  drawPlay();
  // Free again on the board the line makes or, if none comes (a line
  // refused), 3 s after the reply; only a later line's wait outlasts it.
  const n = ++play.sent;
  run(line).finally(() => { setTimeout(() => { if (play.busy && play.sent === n) { play.busy = false; drawPlay(); } }, 3000); });
}

// drawPlay tints the map, draws its arrows and fills the panel under it.
function drawPlay() {
  const b = state.board, ctl = play.ctl;
  if (!b || !ctl || !ctl.reg) return;
  const mv = b.moves || {}, p = $("panel");
  // The panel is drawn aside, then put in place only if it differs from
  // the one shown: a redraw that changes nothing (a board about another
  // seat, the timer after a sent line) keeps the buttons, so a press on
  // one as it happens still makes its click. Each button runs the action
  // of the latest draw at its place (play.acts).
  const next = document.createElement("div"), acts = [];
  const row = document.createElement("div");
  row.className = "buttons";
  const g = {
    b, mv, tint: {},
    name: (t) => ctl.reg.territories[t].name,
    armies: (t) => b.territories[t].armies,
    say: (text) => { const d = document.createElement("div"); d.textContent = text; next.appendChild(d); return d; },
    btn: (label, line, style) => {
      const x = document.createElement("button"), i = acts.length;
      x.type = "button";
      x.className = "btn " + (style || "secondary");
      x.textContent = label;
      x.disabled = play.busy;
      x.dataset.line = typeof line === "function" ? "" : line;
      acts.push(typeof line === "function" ? line : () => send(line));
      x.addEventListener("click", (e) => play.acts[i](e));
      row.appendChild(x);
      return x;
    },
  };
  g.amounts = (most, mk) => {
    const list = [...new Set([1, 2, 3, 5, 10, Math.ceil(most / 2), most])].filter((n) => n >= 1 && n <= most).sort((x, y) => x - y);
    for (const n of list) g.btn(n === most && n > 1 ? t("page.play.all", { Count: n }) : String(n), mk(n), n === most ? "primary" : "secondary");
  };
  if (b.viewer < 0) g.say(t("page.play.spectator"));
  else if (b.rules === "capitals") drawCapitals(g);
  else drawClassic(g);
  if (mv.end) {
    if (b.phase === "orders") g.btn(t("page.play.ready", { Count: (b.orders || []).length }), "/risk end", "success");
    else g.btn(t("page.play.end"), "/risk end", "success");
  }
  if (b.phase === "orders" ? mv.undo : b.viewer >= 0 && b.viewer === b.current && b.phase !== "setup") g.btn(t("page.play.undo"), "/risk undo");
  next.appendChild(row);
  play.acts = acts;
  if (next.innerHTML !== play.drawn || !p.firstChild) {
    play.drawn = next.innerHTML;
    if (ctl.zoomBar) row.appendChild(ctl.zoomBar);
    p.replaceChildren(...next.childNodes);
  }
  ctl.highlight(g.tint);
  // The orders of a simultaneous round (until it resolves), a territory's
  // placements as one, and the plan of a capitals turn, numbered in the
  // order they run.
  let n = 0;
  const placed = {}, arrows = [];
  for (const o of b.orders || []) {
    if (o.kind !== "place") arrows.push({ ...o, label: o.kind === "plan" ? String(++n) : String(o.armies) });
    else if (placed[o.to]) placed[o.to].armies += o.armies;
    else arrows.push(placed[o.to] = { ...o });
  }
  for (const a of Object.values(placed)) a.label = "+" + a.armies;
  ctl.arrows(arrows);
  if (state.stick) stickToEnd(); // the panel's height changes with it
}

// drawClassic is the panel of the classic rules, turn by turn or in
// simultaneous rounds.
function drawClassic(g) {
  const { b, mv, tint, say, btn, amounts, name, armies } = g;
  if (b.ready) {
    say(t("page.play.ready-wait"));
  } else if (mv.occupy) {
    const o = mv.occupy;
    say(t("page.play.occupy", { Territory: name(o.to), Min: o.min, Max: o.max }));
    amounts(o.max, (n) => "/risk occupy armies:" + n);
  } else if (play.amount) {
    say(t("page.play.how-many", { Territory: name(play.amount.t), Reserve: mv.reserve }));
    amounts(mv.reserve, (n) => "/risk place territory:" + tname(play.amount.t) + " armies:" + n);
    btn(t("page.cancel"), () => { play.amount = null; drawPlay(); });
    tint[play.amount.t] = "#ffffff60";
  } else if (mv.place && mv.place.length && play.sel < 0) {
    say(t("page.play.place", { Reserve: mv.reserve }));
  } else if (mv.attack || mv.fortify || mv.assault) {
    const s = play.sel, to = play.target;
    if (s < 0) {
      say(mv.assault ? t("page.play.pick-orders") : mv.attack ? t("page.play.pick-attack") : t("page.play.pick-fortify"));
    } else {
      tint[s] = "#ffffff70";
      for (const k of ["attack", "assault"]) for (const x of (findFrom(mv[k], s) || { to: [] }).to) tint[x] = x === to ? "#ff2020c0" : "#ff202070";
      for (const x of (findFrom(mv.fortify, s) || { to: [] }).to) tint[x] = x === to ? "#20ff60b0" : "#20ff6050";
      const kind = to >= 0 ? targetKind(mv, s, to) : "";
      if (kind === "attack") {
        const o = RiskMap.odds(armies(s), armies(to)), dice = Math.min(3, armies(s) - 1);
        const line = "/risk attack from:" + tname(s) + " to:" + tname(to);
        const win = (100 * o.win).toFixed(0);
        say(t("page.play.odds", { From: name(s), FromArmies: armies(s), To: name(to), ToArmies: armies(to), Win: win, Left: o.attacker_left.toFixed(0) })).className = "odds";
        btn(t("page.play.attack-once", { Count: dice }), line + " dice:" + dice, "danger");
        btn(t("page.play.blitz", { Win: win }), line + " until:win", "danger");
        for (const k of [...new Set([2, Math.ceil(armies(s) / 2)])].filter((k) => k < armies(s))) btn(t("page.play.until", { Count: k }), line + " until:" + k);
      } else if (kind === "assault") {
        // The armies ordered roll as a blitz when the round resolves: the
        // odds of all of them against what the target holds now.
        const most = findFrom(mv.assault, s).max, o = RiskMap.odds(most + 1, Math.max(1, armies(to)));
        say(t("page.play.order-attack", { From: name(s), To: name(to), ToArmies: armies(to), Count: most, Win: (100 * o.win).toFixed(0) })).className = "odds";
        amounts(most, (n) => "/risk attack from:" + tname(s) + " to:" + tname(to) + " armies:" + n);
      } else if (kind === "fortify") {
        say(t(b.phase === "orders" ? "page.play.order-move" : "page.play.move", { From: name(s), To: name(to) }));
        amounts(findFrom(mv.fortify, s).max, (n) => "/risk fortify from:" + tname(s) + " to:" + tname(to) + " armies:" + n);
      } else {
        const attack = findFrom(mv.attack, s) || findFrom(mv.assault, s), fortify = findFrom(mv.fortify, s);
        const key = attack && fortify ? "page.play.from-both" : attack ? "page.play.from-attack" : "page.play.from-fortify";
        say(t(key, { From: name(s), Armies: armies(s) }));
      }
    }
  } else {
    const cur = b.seats[b.current];
    say(mv.end ? t("page.play.done") : b.phase === "setup" || b.phase === "orders" || !cur ? t("page.play.hover") : t("page.play.hover-turn", { Player: cur.name }));
  }
  if (mv.trade) btn(t("page.play.trade"), "/risk trade", "primary");
}

// ratios are the capitals move's shares, as /risk fortify ratio: names them.
const ratios = ["1/4", "1/2", "3/4", "all"];

// drawCapitals is the panel of the capitals rules: the capital chosen,
// the reinforcements sent, a capture, a port, attacks planned then
// launched, the move (with the hero), the item used.
function drawCapitals(g) {
  const { b, mv, tint, say, btn, name, armies } = g;
  const s = play.sel, to = play.target, has = (l, x) => (l || []).includes(x);
  if (mv.capital) {
    for (const x of mv.capital) tint[x] = x === s ? "#ffffffb0" : "#ffffff40";
    if (s < 0) say(t("page.play.capital"));
    else {
      say(t("page.play.capital-here", { Territory: name(s), Troops: armies(s) }));
      btn(t("page.play.capital-button", { Territory: name(s) }), "/risk place territory:" + tname(s), "primary");
    }
  } else if (mv.reinforce) {
    if (s < 0) say(t("page.play.reinforce", { Count: mv.reserve }));
    else {
      tint[s] = "#ffffff70";
      say(t("page.play.reinforce-here", { Territory: name(s), Count: mv.reserve, Troops: armies(s) }));
      btn(t("page.play.reinforce-button", { Territory: name(s), Count: mv.reserve }), "/risk place territory:" + tname(s), "primary");
    }
  } else if (mv.capture || mv.plan || mv.move || mv.port) {
    if (s < 0) {
      say(mv.launch ? t("page.play.planned", { Count: mv.launch }) : mv.capture || mv.plan || mv.port ? t("page.play.pick-action") : t("page.play.pick-move"));
    } else {
      tint[s] = "#ffffff70";
      for (const x of (findFrom(mv.capture, s) || { to: [] }).to) tint[x] = x === to ? "#ffd020c0" : "#ffd02070";
      for (const x of (findFrom(mv.plan, s) || { to: [] }).to) tint[x.to] = x.to === to ? "#ff2020c0" : "#ff202070";
      for (const x of (findFrom(mv.move, s) || { to: [] }).to) tint[x] = x === to ? "#20ff60b0" : "#20ff6050";
      const kind = to >= 0 ? targetKind(mv, s, to) : "";
      const line = kind && "/risk attack from:" + tname(s) + " to:" + tname(to);
      if (kind === "capture") {
        say(t("page.play.capture", { From: name(s), To: name(to), Troops: armies(to) }));
        btn(t("page.play.capture-button", { To: name(to) }), line, "danger");
      } else if (kind === "plan") {
        const o = findFrom(mv.plan, s).to.find((x) => x.to === to);
        const outlook = o.fog ? "page.play.plan-fog" : o.lo >= o.troops ? "page.play.plan-sure" : o.hi >= o.troops ? "page.play.plan-luck" : "page.play.plan-weaken";
        say(t("page.play.plan", { From: name(s), To: name(to), Attack: o.attack, Defence: o.defence }) + (o.sea ? " " + t("page.play.plan-sea") : "") + " " +
          t(outlook, { Lo: o.lo, Hi: o.hi, Count: o.troops })).className = "odds";
        btn(t("page.play.plan-button", { To: name(to) }), line, "danger");
      } else if (kind === "move") {
        const m = findFrom(mv.move, s), hero = m.hero && (play.hero ?? mv.hero);
        say(t("page.play.move-troops", { From: name(s), To: name(to) }));
        ratios.forEach((r, i) => {
          const a = armies(s), n = i === 3 ? a : Math.max(0, Math.min(Math.floor(a * (i + 1) / 4), a - 1));
          if (n > 0) btn(t("page.play.ratio", { Ratio: r === "all" ? t("page.play.ratio-all") : r, Count: n }), "/risk fortify from:" + tname(s) + " to:" + tname(to) + " ratio:" + r + (m.hero ? " hero:" + (hero ? "yes" : "no") : ""), i + 1 === mv.ratio ? "primary" : "secondary");
        });
        if (m.hero) {
          const x = btn(t("page.play.hero"), () => { play.hero = !hero; drawPlay(); });
          x.setAttribute("aria-pressed", String(!!hero));
        }
      } else {
        say(t("page.play.from-capitals", { From: name(s), Troops: armies(s) }));
      }
      if (to < 0 && has(mv.port, s)) btn(t("page.play.port", { Territory: name(s) }), "/risk port territory:" + tname(s));
    }
  } else if (mv.launch) {
    say(t("page.play.planned", { Count: mv.launch }));
  } else {
    const cur = b.seats[b.current];
    say(mv.end ? t("page.play.done") : cur ? t("page.play.hover-turn", { Player: cur.name }) : t("page.play.hover"));
  }
  if (mv.launch) btn(t("page.play.launch", { Count: mv.launch }), "/risk launch", "danger");
  if (mv.item) {
    say(t("page.play.item", { Item: mv.item.title, What: mv.item.what }));
    if (mv.item.use) btn(t("page.play.use"), "/risk show cards use:yes", "primary");
  }
}

// Inside Discord the page is the channel's Activity (activity.js, loaded
// there only): its player signs in with Discord before the page starts.
const inDiscord = ["frame_id", "instance_id"].every((k) => new URLSearchParams(location.search).has(k));
Words.load(state.lang).then(() => inDiscord && import("/static/activity.js").then((a) => a.start())).then(setup, (e) => showError(e.message));

// The page's library of maps (docs/maps.md), kept by its operator: a
// Domination map's .zip goes in, /risk new map:NAME plays it.
function mapNote(text) { $("map-note").textContent = text || ""; }

async function loadMaps() {
  let data;
  try { data = await api("GET", "/web/maps"); } catch (e) { mapNote(e.message); return; }
  const ul = $("map-list");
  ul.textContent = "";
  for (const m of data.maps) {
    const li = document.createElement("li");
    const entry = document.createElement("span");
    entry.textContent = t("page.maps.entry", { Name: m.name, Count: m.territories });
    entry.title = "/risk new map:" + m.name;
    li.appendChild(entry);
    const x = document.createElement("button");
    x.type = "button";
    x.className = "forget";
    x.textContent = "✕";
    x.title = t("page.maps.remove-title", { Name: m.name });
    x.addEventListener("click", async () => {
      if (!confirm(t("page.maps.remove-confirm", { Name: m.name }))) return;
      try {
        await api("POST", "/web/maps/remove", { name: m.name });
        mapNote(t("page.maps.removed", { Name: m.name }));
      } catch (e) { mapNote(e.message); }
      loadMaps();
    });
    li.appendChild(x);
    ul.appendChild(li);
  }
  if (!data.maps.length) {
    const li = document.createElement("li");
    li.className = "note";
    li.textContent = t("page.maps.none");
    ul.appendChild(li);
  }
}

async function uploadMap(ev) {
  ev.preventDefault();
  const file = $("map-file").files[0];
  if (!file) { mapNote(t("page.maps.choose")); return; }
  const form = new FormData();
  form.append("file", file);
  if ($("map-name").value.trim()) form.append("name", $("map-name").value.trim());
  if ($("map-mutual").checked) form.append("mutual", "on");
  mapNote(t("page.maps.checking", { File: file.name }));
  if (!state.token) await fetchToken();
  const res = await fetch("/web/maps", { method: "POST", headers: { "X-Risk-Token": state.token }, body: form });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { mapNote(data.error || res.statusText); return; }
  $("map-upload").reset();
  mapNote(t("page.maps.added", { Name: data.name, Count: data.territories }));
  loadMaps();
}

$("map-upload").addEventListener("submit", (ev) => uploadMap(ev).catch((e) => mapNote(e.message)));
